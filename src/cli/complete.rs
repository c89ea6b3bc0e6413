//! `rulebook complete --line LINE`: the completions only the program knows,
//! one a line, for the shell scripts `rulebook completions SHELL` prints:
//! the games (bundled, and `.rules` files and folders), the players after
//! `--white`, `--black`, `--seat SIDE=` and `--agents`, the sides after
//! `--seat`, and the options of the game on the line after `--option`
//! (`NAME=VALUE`). clap_complete's scripts complete commands and flags, but
//! only from fixed lists: a game is a bundled name or any path (a list of
//! possible values would refuse paths), and a game's options depend on the
//! game typed before them; its dynamic completion is unstable. So bash, zsh
//! and fish ask this hook first, and clap's script completes the rest.

use std::io::Write;

use super::FsLoader;
use crate::load::{check, Loaded};

/// The flags whose value is a player.
const PLAYER_FLAGS: [&str; 3] = ["--white", "--black", "--agents"];

/// The candidates for the last word of `line` (the command line up to the
/// cursor, from the program's name; split at white space, and the last
/// word empty when the line ends in a space).
pub(crate) fn candidates(cmd: &clap::Command, line: &str) -> Option<Vec<String>> {
    let mut words: Vec<&str> = line.split_whitespace().skip(1).collect();
    if line.is_empty() || line.ends_with(char::is_whitespace) {
        words.push("");
    }
    let (&cur, before) = words.split_last()?;
    let starting = |all: Vec<String>| -> Vec<String> {
        all.into_iter().filter(|c| c.starts_with(cur)).collect()
    };
    let (&name, rest) = before.split_first()?;
    let sub = cmd.find_subcommand(name)?;
    // The words given so far: the positionals, and whether the last one
    // is a flag waiting for its value.
    let takes_value = |flag: &str| {
        sub.get_arguments().any(|a| {
            a.get_long().is_some_and(|l| flag == format!("--{l}")) && a.get_action().takes_values()
        })
    };
    let mut positionals = Vec::new();
    let mut waiting: Option<&str> = None;
    for &w in rest {
        if waiting.take().is_some() {
            continue;
        }
        if w.starts_with('-') {
            if !w.contains('=') && takes_value(w) {
                waiting = Some(w);
            }
        } else {
            positionals.push(w);
        }
    }
    let game = sub
        .get_positionals()
        .next()
        .filter(|a| a.get_id() == "game")
        .and(positionals.first().copied());
    let players = || {
        crate::agents::PLAYERS
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
    };
    match waiting {
        Some(flag) if PLAYER_FLAGS.contains(&flag) => {
            // `--agents a,b,c`: the last of the list.
            let (done, _) = cur.rsplit_once(',').unwrap_or(("", cur));
            let done = if done.is_empty() {
                String::new()
            } else {
                format!("{done},")
            };
            return Some(starting(
                players().iter().map(|p| format!("{done}{p}")).collect(),
            ));
        }
        Some("--seat") => {
            return Some(match cur.split_once('=') {
                Some((side, _)) => {
                    starting(players().iter().map(|p| format!("{side}={p}")).collect())
                }
                None => starting(
                    game.map(sides)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|s| format!("{s}="))
                        .collect(),
                ),
            });
        }
        Some("--option") => return Some(starting(game.map(options).unwrap_or_default())),
        Some(_) => return None,
        None => {}
    }
    if cur.starts_with('-') {
        return None;
    }
    let wants_game = positionals.is_empty()
        && sub
            .get_positionals()
            .next()
            .is_some_and(|a| a.get_id() == "game");
    if wants_game {
        let mut all = starting(
            crate::bundled::GAMES
                .iter()
                .map(|(n, _)| n.to_string())
                .collect(),
        );
        all.extend(files(cur));
        return Some(all);
    }
    None
}

/// The sides (or seats) of a game, by name.
fn sides(game: &str) -> Vec<String> {
    match check(&FsLoader, game, &[]).loaded {
        Some(Loaded::Board(t)) => t.game().sides.iter().map(|s| s.id.clone()).collect(),
        Some(Loaded::Race(g)) => g.seats.clone(),
        None => Vec::new(),
    }
}

/// The options of a game, each `NAME=VALUE`.
fn options(game: &str) -> Vec<String> {
    check(&FsLoader, game, &[])
        .summary()
        .map(|s| {
            s.options
                .iter()
                .flat_map(|(n, vs)| vs.iter().map(move |v| format!("{n}={v}")))
                .collect()
        })
        .unwrap_or_default()
}

/// The rule files (`.rules`) and folders that `cur` begins: folders end in
/// `/`.
fn files(cur: &str) -> Vec<String> {
    let (dir, stem) = match cur.rfind('/') {
        Some(i) => (&cur[..=i], &cur[i + 1..]),
        None => ("", cur),
    };
    let Ok(entries) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            if !name.starts_with(stem) || (name.starts_with('.') && !stem.starts_with('.')) {
                return None;
            }
            let folder = e.file_type().ok()?.is_dir();
            if folder {
                Some(format!("{dir}{name}/"))
            } else if name.ends_with(".rules") {
                Some(format!("{dir}{name}"))
            } else {
                None
            }
        })
        .collect();
    out.sort();
    out
}

/// Prints the candidates, one a line; false (nothing printed) when the
/// word is a command or a flag, which the scripts complete themselves.
pub(crate) fn run(cmd: &clap::Command, line: &str, out: &mut dyn Write) -> std::io::Result<bool> {
    let Some(found) = candidates(cmd, line) else {
        return Ok(false);
    };
    for c in found {
        writeln!(out, "{c}")?;
    }
    Ok(true)
}

/// Adds the hook to clap's script for `shell`: bash, zsh and fish ask
/// `rulebook complete` first and fall back to clap's completion of the
/// commands and flags when it has nothing to say (exit 1); powershell and
/// elvish keep clap's script as it is (commands and flags).
pub(crate) fn with_hook(shell: &str, clap_script: String) -> String {
    match shell {
        "bash" => clap_script.replacen("_rulebook() {", "_rulebook_clap() {", 1) + BASH,
        "zsh" => {
            let script = clap_script.replacen("_rulebook() {", "_rulebook_clap() {", 1);
            match script.rfind("\nif [ \"$funcstack[1]\" = \"_rulebook\" ]") {
                Some(i) => format!("{}\n{ZSH}{}", &script[..i], &script[i..]),
                None => script,
            }
        }
        "fish" => clap_script + FISH,
        _ => clap_script,
    }
}

const BASH: &str = r#"
# What only rulebook knows (games, players, a game's options) comes from
# `rulebook complete`; commands and flags from the function above.
_rulebook() {
    local line
    if [[ -n "${COMP_LINE+x}" ]]; then
        line="${COMP_LINE:0:COMP_POINT}"
    else
        line="${COMP_WORDS[*]:0:COMP_CWORD+1}"
    fi
    local found
    if found="$(rulebook complete --line "$line" 2>/dev/null)"; then
        local word="${line##*[[:space:]]}"
        local cur="${COMP_WORDS[COMP_CWORD]}"
        # bash splits NAME=VALUE at `=` (and `:`): keep what it calls the word.
        case "$cur" in *=|*:) cur="" ;; esac
        local drop=$(( ${#word} - ${#cur} )) c
        COMPREPLY=()
        while IFS= read -r c; do
            [[ -n "$c" ]] && COMPREPLY+=("${c:drop}")
        done <<< "$found"
        if [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *[/=] ]]; then
            compopt -o nospace 2>/dev/null
        fi
        return 0
    fi
    _rulebook_clap "$@"
}
"#;

const ZSH: &str = r#"# What only rulebook knows (games, players, a game's options) comes from
# `rulebook complete`; commands and flags from the function above.
_rulebook() {
    local out
    local -a found
    if out="$(rulebook complete --line "${BUFFER[1,CURSOR]}" 2>/dev/null)"; then
        found=("${(@f)out}")
        compadd -Q -S '' -- ${(M)found:#*[/=]}
        compadd -Q -- ${found:#*[/=]}
        return 0
    fi
    _rulebook_clap "$@"
}
"#;

const FISH: &str = r#"# What only rulebook knows (games, players, a game's options).
complete -c rulebook -f -a '(rulebook complete --line (commandline -cp) 2>/dev/null)'
"#;
