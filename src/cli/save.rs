//! Saving files without ever destroying the previous one: write a temporary
//! file beside it, then rename it over the old one.

use std::io::Write;
use std::path::Path;

/// Writes `contents` to `path` atomically.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let tmp_name = format!(".{name}.tmp{}", std::process::id());
    let tmp = match dir {
        Some(d) => d.join(tmp_name),
        None => Path::new(&tmp_name).to_path_buf(),
    };
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// A board game's record as JSON lines: a header with the game, its options
/// and the start position, then one line per ply with the player and the move.
pub fn board_record(
    game: &str,
    options: &[String],
    t: &crate::engine::Tables,
    start: &crate::engine::Position,
    moves: &[crate::engine::Move],
) -> String {
    use super::board::json_str;
    let options: Vec<String> = options.iter().map(|o| json_str(o)).collect();
    let mut out = format!(
        "{{\"game\":{},\"options\":[{}],\"position\":{}}}\n",
        json_str(game),
        options.join(","),
        json_str(&start.to_fen(t))
    );
    let mut pos = start.clone();
    let mut gen = crate::engine::Generator::new();
    let mut list = crate::engine::MoveList::new();
    for m in moves {
        let side = t
            .game
            .sides
            .get(usize::from(pos.to_move))
            .map_or("?", |s| s.id.as_str());
        out.push_str(&format!(
            "{{\"player\":{},\"move\":{}}}\n",
            json_str(side),
            json_str(&m.notation)
        ));
        gen.generate(t, &mut pos, &mut list);
        let legal = crate::engine::moves_of(t, &list);
        if let Some(i) = legal.iter().position(|x| x == m) {
            let rec = list.moves[i];
            crate::engine::make(t, &mut pos, &list, &rec);
        }
    }
    out
}
