//! The race engine on generated rule files: the bytes choose a track (a line
//! or a loop with home columns), players, pieces, dice, how pieces enter,
//! move and finish, cell rules (landing and resting, with every kind of
//! test and effect) and roll rules; a file that checks clean is played with
//! rolls and choices from the bytes. Never a panic, and a game ends or is
//! cut at a bounded number of rolls.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rulebook::load::{check, LoadError, Loader, Source};
use rulebook::race::{Choice, RaceState, Roll};

/// The generated file as `fuzz`; other names are bundled games.
struct Mem(String);

impl Loader for Mem {
    fn load(&self, name: &str, _base: Option<&str>) -> Result<Source, LoadError> {
        if name == "fuzz" {
            return Ok(Source {
                name: name.into(),
                text: self.0.clone(),
            });
        }
        rulebook::bundled::get(name)
            .map(|text| Source {
                name: name.into(),
                text: text.into(),
            })
            .ok_or_else(|| LoadError::NoBundledGame { name: name.into() })
    }
}

/// Bytes read one at a time (0 when they run out).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn below(&mut self, n: u32) -> u32 {
        u32::from(self.next()) % n.max(1)
    }
    fn pick<'s>(&mut self, words: &[&'s str]) -> &'s str {
        words[self.below(words.len() as u32) as usize]
    }
}

fn effect(b: &mut Bytes<'_>, track: u32) -> String {
    let n = b.below(track + 3);
    match b.below(14) {
        0 => format!("forward {}", b.below(12)),
        1 => format!("back {}", b.below(12)),
        2 => format!("go to {n}"),
        3 => "out".into(),
        4 => format!("miss {} turns", b.below(4)),
        5 => "no extra roll".into(),
        6 => "extra roll".into(),
        7 => "repeat move".into(),
        8 => "held".into(),
        9 => "bump".into(),
        10 => "stop".into(),
        11 => "end turn".into(),
        _ => {
            let target = b.pick(&["others", "opponents", "furthest", "hindmost", "own-pieces", "last-moved"]);
            let what = match b.below(4) {
                0 => format!("forward {}", b.below(9)),
                1 => format!("back {}", b.below(9)),
                2 => format!("go to {n}"),
                _ => "out".into(),
            };
            format!("{target} {what}")
        }
    }
}

fn test(b: &mut Bytes<'_>, track: u32, faces: u32) -> String {
    let mut parts = Vec::new();
    for _ in 0..=b.below(2) {
        let not = if b.below(4) == 0 { "not " } else { "" };
        let atom = match b.below(8) {
            0 => format!("digit {}", b.below(10)),
            1 => "double".into(),
            2 => format!("cells {} {}-{}", 1 + b.below(track), b.below(track), b.below(track + 2)),
            3 => format!("multiple of {}", b.below(12)),
            4 => "any".into(),
            5 => "entering".into(),
            6 => format!("roll {}", 1 + b.below(faces)),
            _ => format!("cell {}", b.below(track + 2)),
        };
        parts.push(format!("{not}{atom}"));
    }
    parts.join(" and ")
}

/// A race rule file from the bytes.
fn rule_file(b: &mut Bytes<'_>) -> String {
    let mut f = String::from("game \"fuzz\"\n");
    let track = 2 + b.below(120);
    let looped = b.below(3) == 0;
    let (min, max) = (1 + b.below(4), 1 + b.below(6));
    if looped {
        let starts: Vec<String> = (0..max).map(|_| (1 + b.below(track)).to_string()).collect();
        f += &format!("track {track} loop starts {} home {}\n", starts.join(" "), b.below(8));
    } else {
        f += &format!("track {track}\n");
    }
    f += &format!("players {min}-{max}\n");
    f += &format!("pieces {} per player\n", 1 + b.below(4));
    let faces = 2 + b.below(10);
    f += &format!("dice {} d{faces}\n", 1 + b.below(3));
    for _ in 0..b.below(3) {
        f += &format!("move {}\n", b.pick(&["by sum", "compulsory", "optional"]));
    }
    match b.below(3) {
        0 => f += "enter always\n",
        1 => f += &format!("enter on {}\n", 1 + b.below(faces)),
        _ => f += &format!("enter on {} at start\n", 1 + b.below(faces)),
    }
    match b.below(4) {
        0 => f += "extra roll on doubles\n",
        1 => f += &format!("extra roll on {}\n", 1 + b.below(faces)),
        2 => f += "extra roll never\n",
        _ => {}
    }
    f += &format!("finish {}\n", b.pick(&["exact bounce", "exact", "past"]));
    f += &format!("win {}\n", b.pick(&["first piece", "all pieces"]));
    f += &format!("landing rules {}\n", b.pick(&["once", "chain"]));
    if b.below(3) == 0 {
        f += &format!("safe cells {}\n", 1 + b.below(track));
    }
    if b.below(3) == 0 {
        f += &format!("outcome {} {}\n", b.pick(&["first-home", "last-home"]), b.pick(&["win", "lose"]));
    }
    if b.below(4) == 0 {
        f += "finishing order\n";
    }
    for _ in 0..b.below(8) {
        let when = b.pick(&["landing", "resting"]);
        let t = test(b, track, faces);
        let effects: Vec<String> = (0..=b.below(3)).map(|_| effect(b, track)).collect();
        f += &format!("{when} on {t} \"r\": {}\n", effects.join(", "));
    }
    if b.below(3) == 0 {
        let e = effect(b, track);
        match b.below(2) {
            0 => f += &format!("rolling {} doubles in a row: {e}\n", 1 + b.below(4)),
            _ => f += &format!("rolling {} {} times in a row: {e}\n", 1 + b.below(faces), 1 + b.below(3)),
        }
    }
    f
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let text = rule_file(&mut b);
    let checked = check(&Mem(text), "fuzz", &[]);
    let Some(game) = checked.into_race() else {
        return;
    };
    let players = usize::from(game.min_players) + b.below(3) as usize;
    let Ok(mut state) = RaceState::new(&game, players) else {
        return;
    };
    let mut choices = Vec::new();
    let mut events = Vec::new();
    for _ in 0..2000 {
        if state.is_over() {
            break;
        }
        let faces: Vec<u8> = (0..game.dice)
            .map(|_| 1 + (b.next() % game.faces.max(1)))
            .collect();
        let Some(roll) = Roll::new(&faces) else {
            return;
        };
        if state.check_roll(&game, &roll).is_err() {
            return;
        }
        state.choices(&game, &roll, &mut choices);
        let choice = match choices.len() {
            0 => Choice::Pass,
            n => choices[usize::from(b.next()) % n],
        };
        // A listed choice is always legal.
        if state.apply(&game, &roll, choice, &mut events).is_err() && !choices.is_empty() {
            panic!("a listed choice was refused: {choice:?}");
        }
    }
});
