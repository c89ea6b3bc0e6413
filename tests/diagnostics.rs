//! The checker's diagnostics: one fixture per kind with its rendered message
//! snapshotted, one test per kind pinning line and column, the bundled games
//! checking clean, and no panic on broken input.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use rulebook::diagnostic::{Code, Diagnostic};
use rulebook::load::{check, check_source, BundledLoader, Checked, LoadError, Loader, Source};
use std::path::{Path, PathBuf};

// ------------------------------------------------------------------ helpers

/// The folder of the error fixtures.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/errors")
}

/// Loads `NAME` from the fixtures folder (`NAME.rules`), else a bundled game.
struct FixtureLoader;

impl Loader for FixtureLoader {
    fn load(&self, name: &str, _base: Option<&str>) -> Result<Source, LoadError> {
        let name = name.strip_suffix(".rules").unwrap_or(name);
        match std::fs::read_to_string(fixtures().join(format!("{name}.rules"))) {
            Ok(text) => Ok(Source {
                name: format!("{name}.rules"),
                text,
            }),
            Err(_) => BundledLoader.load(name, None),
        }
    }
}

/// One rule file text, checked; assertions chain.
struct Case {
    checked: Checked,
}

impl Case {
    /// Checks `text` (named `test.rules`) with default options.
    fn new(text: &str) -> Case {
        Case::with_options(text, &[])
    }

    /// Checks `text` with option values.
    fn with_options(text: &str, options: &[(&str, &str)]) -> Case {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let source = Source {
            name: "test.rules".to_string(),
            text: text.to_string(),
        };
        Case {
            checked: check_source(source, &FixtureLoader, &options),
        }
    }

    /// Asserts a diagnostic `code` whose primary label starts at `line:col`
    /// (1-based) of `file`.
    fn at_in(self, code: &str, file: &str, line: usize, col: usize) -> Case {
        let found = self.checked.diagnostics.iter().any(|d| {
            d.code.as_str() == code
                && d.primary_span()
                    .and_then(|s| self.checked.sources.location(s))
                    .is_some_and(|(f, l, c)| f == file && l == line && c == col)
        });
        assert!(
            found,
            "no {code} at {file}:{line}:{col}; got:\n{}",
            self.checked.render()
        );
        self
    }

    /// Asserts a diagnostic `code` at `line:col` of the checked text.
    fn at(self, code: &str, line: usize, col: usize) -> Case {
        self.at_in(code, "test.rules", line, col)
    }

    /// Asserts the diagnostics have exactly these codes, in source order.
    fn codes(self, codes: &[&str]) -> Case {
        let mut sorted: Vec<&Diagnostic> = self.checked.diagnostics.iter().collect();
        sorted.sort_by_key(|d| d.sort_key());
        let got: Vec<&str> = sorted.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(got, codes, "{}", self.checked.render());
        self
    }

    /// Asserts the rendered report contains `text`.
    fn renders(self, text: &str) -> Case {
        let rendered = self.checked.render();
        assert!(rendered.contains(text), "{text:?} not in:\n{rendered}");
        self
    }
}

// ------------------------------------------------------------------ fixtures

#[test]
fn fixture_snapshots() {
    insta::glob!("fixtures/errors/*.rules", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let checked = check_source(
            Source {
                name,
                text: text.clone(),
            },
            &FixtureLoader,
            &[],
        );
        // The first line names the code the fixture is about.
        let code = text.get(3..7).unwrap();
        assert!(
            checked.diagnostics.iter().any(|d| d.code.as_str() == code),
            "{} does not report {code}:\n{}",
            path.display(),
            checked.render()
        );
        assert!(checked.board().is_none() || code.starts_with('W'));
        insta::assert_snapshot!(checked.render());
    });
}

#[test]
fn every_code_has_a_fixture() {
    let mut headers = Vec::new();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rules") {
            let text = std::fs::read_to_string(&path).unwrap();
            headers.push(text.get(3..7).unwrap_or("").to_string());
        }
    }
    for code in Code::ALL {
        assert!(
            headers.iter().any(|h| h == code.as_str()),
            "no fixture for {code}"
        );
    }
}

#[test]
fn codes_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for code in Code::ALL {
        assert!(seen.insert(code.as_str()), "{code} twice");
    }
}

// ------------------------------------------------------------------ one per kind, pinned

/// A small complete game to break in the tests below (9 lines).
const GAME: &str = "game \"Small\"
board 8 x 8
playable dark
side white \"White\" forward north
side black \"Black\" forward south
zone home = ranks 1-3
piece man \"Man\" { step forward-left forward-right  jump short diagonal }
setup man at home
end no-moves lose
";

#[test]
fn the_small_game_is_clean() {
    Case::new(GAME).codes(&[]);
}

#[test]
fn e001_syntax() {
    Case::new("board 8 x\nside white \"W\" forward north")
        .at("E001", 2, 1)
        .renders("expected a number, found `side`");
    Case::new("piece man \"Man\" {\n  step n\n  value x\n}").at("E001", 3, 9);
    Case::new("game \"open")
        .at("E001", 1, 6)
        .renders("unterminated string");
    Case::new("when k = v {\n  board 8 x 8\n").renders("this `{` is never closed");
}

#[test]
fn e001_reports_every_syntax_error() {
    Case::new("board 8 x\nside white\ngame 7\n").codes(&["E001", "E001", "E001"]);
}

#[test]
fn e002_unknown_direction() {
    let text = GAME.replace("forward-right", "forward-rigth");
    Case::new(&text)
        .at("E002", 7, 37)
        .renders("did you mean `forward-right`?");
    Case::new("extends \"draughts\"\ndirections d = fwd\n").at("E002", 2, 16);
}

#[test]
fn e003_unknown_zone() {
    let text = GAME.replace("setup man at home", "setup man at hom");
    Case::new(&text)
        .at("E003", 8, 14)
        .renders("did you mean `home`?");
}

#[test]
fn e004_unknown_kind() {
    let text = GAME.replace("setup man at home", "setup mn at home");
    Case::new(&text).at("E004", 8, 7);
    Case::new("extends \"draughts\"\nend draw after 9 plies without move-of kong\n")
        .at("E004", 2, 40)
        .renders("did you mean `king`?");
}

#[test]
fn e005_unknown_side() {
    Case::new(&format!("{GAME}first whte\n"))
        .at("E005", 10, 7)
        .renders("did you mean `white`?");
    Case::new("extends \"draughts\"\nzone z = white: a1, red: h8\non end at z convert to man\n")
        .at("E005", 2, 21);
}

#[test]
fn e006_unknown_option() {
    Case::new("extends \"draughts\"\nwhen king = short { capture free }\n").at("E006", 2, 6);
    Case::with_options("extends \"draughts\"\n", &[("king", "short")])
        .codes(&["E006"])
        .renders("error[E006]: unknown option `king`")
        .renders("did you mean `kings`?");
}

#[test]
fn e007_unknown_option_value() {
    Case::new("extends \"draughts\"\nwhen kings = long { capture free }\n").at("E007", 2, 14);
    Case::with_options("extends \"draughts\"\n", &[("kings", "shrt")])
        .codes(&["E007"])
        .renders("did you mean `short`?");
}

#[test]
fn e008_duplicate() {
    Case::new(&format!("{GAME}zone home = rank 1\n")).at("E008", 10, 6);
    Case::new(&format!("{GAME}board 10 x 10\n")).at("E008", 10, 1);
    Case::new(&format!("{GAME}end no-moves draw\n")).at("E008", 10, 1);
    Case::new("extends \"draughts\"\noption colour = red red\n").at("E008", 2, 21);
}

#[test]
fn e009_off_board() {
    Case::new(&format!("{GAME}setup white man at a9\n")).at("E009", 10, 20);
    Case::new("extends \"draughts\"\nzone z = z1\non end at z convert to man\n").at("E009", 2, 10);
}

#[test]
fn e010_not_playable() {
    Case::new(&format!("{GAME}setup white man at a4\n")).at("E010", 10, 20);
}

#[test]
fn e011_overlap() {
    Case::new(&format!("{GAME}setup black man at c3\n"))
        .at("E011", 10, 20)
        .renders("the first one is put here");
}

#[test]
fn e012_side_without_pieces() {
    let text = GAME.replace("setup man at home", "setup white man at home");
    Case::new(&text).at("E012", 5, 6).codes(&["E012"]);
}

#[test]
fn e013_kind_without_moves() {
    Case::new(&format!(
        "{GAME}piece rock \"Rock\" {{ value 2 }}\nsetup white rock at h4\n"
    ))
    .at("E013", 10, 7);
}

#[test]
fn e014_board_size() {
    Case::new(&GAME.replace("board 8 x 8", "board 8 x 2")).at("E014", 2, 11);
    // Past 32 bits a number is too large to mean anything, whatever it
    // counts (it was read as 4294967295 before).
    Case::new(&GAME.replace("board 8 x 8", "board 99999999999 x 8"))
        .at("E030", 2, 7)
        .renders("`99999999999` is too large");
}

#[test]
fn e015_missing_board() {
    Case::new(&GAME.replace("board 8 x 8\n", ""))
        .at("E015", 1, 6)
        .codes(&["E015"]);
}

#[test]
fn e016_no_sides() {
    let text = GAME
        .replace("side white \"White\" forward north\n", "")
        .replace("side black \"Black\" forward south\n", "");
    Case::new(&text).at("E016", 1, 6).codes(&["E016"]);
}

#[test]
fn e017_too_many_sides() {
    let mut text = String::from("board 8 x 8\n");
    for s in ["a", "b", "c", "d", "e", "f", "g", "h", "i"] {
        text.push_str(&format!("side {s} \"{s}\" forward north\n"));
    }
    Case::new(&text).at("E017", 10, 6);
}

#[test]
fn e018_numeric_square() {
    Case::new(&format!("{GAME}setup white man at 5\n")).at("E018", 10, 20);
}

#[test]
fn e019_square_number() {
    Case::new(&format!("{GAME}notation numeric\nsetup white man at 0\n")).at("E019", 11, 20);
    Case::new("extends \"draughts\"\nzone z = 40\non end at z convert to man\n").at("E019", 2, 10);
}

#[test]
fn e020_rank_range() {
    Case::new(&GAME.replace("ranks 1-3", "ranks 0-3")).at("E020", 6, 19);
    Case::new(&GAME.replace("ranks 1-3", "ranks 3-1")).at("E020", 6, 19);
    Case::new(&GAME.replace("ranks 1-3", "ranks 1-9")).at("E020", 6, 21);
    Case::new(&GAME.replace("ranks 1-3", "rank 12")).at("E020", 6, 18);
}

#[test]
fn e021_extends_load() {
    Case::new("extends \"nowhere\"\n").at("E021", 1, 9);
    let checked = check(&BundledLoader, "nowhere", &[]);
    assert_eq!(checked.errors(), 1);
    assert!(checked.render().contains("can't load `nowhere`"));
}

#[test]
fn e022_extends_cycle() {
    Case::new("extends \"extends-cycle\"\n").at_in("E022", "lib/cycle-b.rules", 2, 9);
}

#[test]
fn e023_extends_not_first() {
    Case::new(&format!("{GAME}extends \"draughts\"\n")).at("E023", 10, 1);
}

#[test]
fn e024_zero_vector() {
    Case::new(&GAME.replace("step forward-left", "step (0, 0) forward-left")).at("E024", 7, 24);
}

#[test]
fn e025_vector_range() {
    Case::new(&GAME.replace("step forward-left", "step (-26, 1) forward-left")).at("E025", 7, 24);
}

#[test]
fn e026_duplicate_letter() {
    Case::new(&GAME.replace("forward south", "forward south letter W")).at("E026", 5, 41);
    Case::new("extends \"draughts\"\npiece queen \"Queen\" letter K { slide any }\n")
        .at("E026", 2, 28);
}

#[test]
fn e027_too_many() {
    let mut text = String::from("extends \"draughts\"\npiece king \"King\" letter K {\n");
    for dx in -10..=10 {
        text.push_str("  step");
        for dy in 1..=20 {
            text.push_str(&format!(" ({dx}, {dy})"));
        }
        text.push('\n');
    }
    text.push_str("}\n");
    Case::new(&text).at("E027", 2, 7);
}

#[test]
fn e028_setup_needs_side() {
    Case::new(&format!("{GAME}setup man at d4 f4\n")).at("E028", 10, 14);
}

#[test]
fn e029_direction_cycle() {
    Case::new("extends \"draughts\"\ndirections a = n b\ndirections b = s a\n")
        .at("E029", 2, 18)
        .at("E029", 3, 18);
}

#[test]
fn e030_count_range() {
    Case::new(&format!("{GAME}end repetition 0 draw\n")).at("E030", 10, 16);
    Case::new(&format!("{GAME}end draw after 0 plies without capture\n")).at("E030", 10, 16);
}

#[test]
fn w001_unused_zone() {
    Case::new(&format!("{GAME}zone centre = d4 e5\n"))
        .at("W001", 10, 6)
        .codes(&["W001"]);
    // A no-stop zone has an effect of its own.
    Case::new(&format!("{GAME}zone centre = d4 e5 no-stop\n")).codes(&[]);
}

#[test]
fn w002_unused_kind() {
    Case::new(&format!(
        "{GAME}piece king \"King\" letter K {{ slide diagonal }}\n"
    ))
    .at("W002", 10, 7)
    .codes(&["W002"]);
}

#[test]
fn w003_no_end() {
    Case::new(&GAME.replace("end no-moves lose\n", ""))
        .at("W003", 1, 6)
        .codes(&["W003"]);
}

#[test]
fn w004_zone_not_playable() {
    Case::new(&format!("{GAME}zone centre = d4 e4 no-stop\n"))
        .at("W004", 10, 18)
        .codes(&["W004"]);
}

#[test]
fn warnings_do_not_stop_the_game() {
    let case = Case::new(&GAME.replace("end no-moves lose\n", ""));
    assert_eq!(case.checked.errors(), 0);
    assert_eq!(case.checked.warnings(), 1);
    assert!(case.checked.board().is_some());
    assert!(case.checked.render().ends_with("warning: 1 warning\n"));
}

#[test]
fn errors_are_collected_and_summed_up() {
    let text = GAME
        .replace("forward-right", "forward-rigth")
        .replace("setup man at home", "setup man at hom")
        .replace("end no-moves lose\n", "");
    let case = Case::new(&text).codes(&["W003", "E002", "E003"]);
    assert!(case.checked.board().is_none());
    assert!(case
        .checked
        .render()
        .ends_with("error: 2 errors, 1 warning\n"));
}

// ------------------------------------------------------------------ race games, one per kind, pinned

/// A small complete race game to break in the tests below (6 lines).
const RACE: &str = "game \"Small race\"
track 30
players 2-4
pieces 1 per player
dice 1 d6
landing on digit 3: forward 1
";

#[test]
fn the_small_race_is_clean() {
    let case = Case::new(RACE).codes(&[]);
    assert!(case.checked.race().is_some() && case.checked.board().is_none());
}

#[test]
fn e031_wrong_kind() {
    Case::new(&format!("{RACE}zone home = rank 1\n"))
        .at("E031", 7, 1)
        .renders("`zone` belongs to board games, and this is a race game");
    Case::new(&format!("{GAME}dice 2 d6\n"))
        .at("E031", 10, 1)
        .renders("`dice` belongs to race games, and this is a board game");
}

#[test]
fn e032_track_size() {
    Case::new(&RACE.replace("track 30", "track 4")).at("E032", 2, 7);
    Case::new(&RACE.replace("track 30", "track 1001")).at("E032", 2, 7);
    Case::new(&RACE.replace("track 30\n", ""))
        .at("E032", 1, 6)
        .renders("the race game has no `track`");
}

#[test]
fn e033_cell_number() {
    Case::new(&format!("{RACE}landing on cells 30: out\n"))
        .at("E033", 7, 18)
        .renders("cell 30 is the finish");
    Case::new(&format!("{RACE}landing on cell 2: go to 31\n")).at("E033", 7, 26);
    Case::new(&format!("{RACE}landing on cells 9-4: out\n")).at("E033", 7, 18);
}

#[test]
fn e034_dice_range() {
    Case::new(&RACE.replace("dice 1 d6", "dice 1 d30")).at("E034", 5, 8);
    Case::new(&format!("{RACE}enter on 7\n")).at("E034", 7, 10);
    Case::new(&format!("{RACE}extra roll on doubles\n"))
        .at("E034", 7, 15)
        .renders("doubles need two dice or more");
    Case::new(&format!("{RACE}landing on roll 6 6: out\n")).at("E034", 7, 17);
}

#[test]
fn e035_player_count() {
    Case::new(&RACE.replace("players 2-4", "players 4-2")).at("E035", 3, 9);
    Case::new(&RACE.replace("players 2-4", "players 9")).at("E035", 3, 9);
    Case::new(&format!("{RACE}seats red blue\n")).at("E035", 7, 7);
}

#[test]
fn e036_missing_dice() {
    Case::new(&RACE.replace("dice 1 d6\n", ""))
        .at("E036", 1, 6)
        .codes(&["E036"]);
}

#[test]
fn e037_resting_move() {
    Case::new(&format!("{RACE}resting on any: back 2\n")).at("E037", 7, 17);
}

#[test]
fn e038_cell_cycle() {
    let text = format!(
        "{RACE}landing rules chain\nlanding on cell 5: go to 8\nlanding on cell 8: go to 5\n"
    );
    Case::new(&text)
        .at("E038", 8, 1)
        .renders("chained landing rules go round in a circle: 5 -> 8 -> 5");
    // The same rules without chaining are fine (SS-3).
    Case::new(&text.replace("chain", "once")).codes(&[]);
}

#[test]
fn e060_effect_misplaced() {
    // A rule of the roll has no cell: `others` and `opponents` pick nothing.
    Case::new("extends \"slow-and-steady\"\nrolling 6 6: opponents out\n")
        .at("E060", 2, 14)
        .renders(
            "use `furthest`, `hindmost`, `own-pieces` or `last-moved`"
                .replace("use", "pick the player's pieces with")
                .as_str(),
        );
    // No piece has moved when the roll is looked at.
    Case::new("extends \"slow-and-steady\"\nrolling 5 5: forward 3\n")
        .at("E060", 2, 14)
        .renders("give the effect a target");
    // `end turn` belongs to the rules of the roll.
    Case::new("extends \"slow-and-steady\"\nlanding on digit 3: end turn\n")
        .at("E060", 2, 21)
        .codes(&["E060"]);
}

/// Issue 9, item 10: a house rule that restates a setting which breaks an
/// inherited statement is reported at its own line, and the hint names the
/// inherited statement.
#[test]
fn e034_a_restated_setting_is_reported_at_the_house_rule() {
    Case::new("extends \"slow-and-steady\"\ndice 1 d6\n")
        .at("E034", 2, 6)
        .renders("inherited: `extra roll on doubles`")
        .renders("the inherited `extra roll on doubles` needs two dice or more");
    Case::new("extends \"variants/goose\"\ndice 4 d20\n")
        .at("E032", 2, 6)
        .renders("inherited: `track 63`");
    // A face the restated dice don't have.
    Case::new("extends \"slow-and-steady\"\ndice 2 d4\n")
        .at("E034", 2, 8)
        .renders("inherited: `enter on 6`")
        .codes(&["E034"]);
    // Stated in one file, the rule written last is still the one pointed at.
    Case::new("track 20\ndice 1 d6\nextra roll on doubles\n").at("E034", 3, 15);
}

/// Issue 9, item 10: `bump back 5` no longer suggests a trigger of board
/// games; the hint shows the effect with a target.
#[test]
fn e001_bump_takes_no_move_the_hint_shows_a_target() {
    Case::new("extends \"slow-and-steady\"\nresting on digit 5: bump back 5\n")
        .at("E001", 2, 26)
        .renders("give the move a target: `others back 5`");
    let checked = check_source(
        Source {
            name: "test.rules".into(),
            text: "extends \"slow-and-steady\"\nresting on digit 5: bump back 5\n".into(),
        },
        &FixtureLoader,
        &[],
    );
    assert!(
        !checked.render().contains("on end at ZONE"),
        "{}",
        checked.render()
    );
}

/// The race constructs of issue 9: a circuit's start cells, safe cells and
/// rules of the roll are checked.
#[test]
fn circuits_safe_cells_and_rules_of_the_roll_are_checked() {
    let base = "track 52 loop starts 1 14 27 home 6\nplayers 2-4\ndice 1 d6\n";
    Case::new(base)
        .at("E035", 1, 22)
        .renders("3 start cells for up to 4 players");
    let base = "track 52 loop starts 1 14 27 60 home 6\nplayers 2-4\ndice 1 d6\n";
    Case::new(base).at("E033", 1, 30);
    let ok = "track 52 loop starts 1 14 27 40 home 6\nplayers 2-4\ndice 1 d6\n";
    Case::new(ok).codes(&[]);
    Case::new(&format!("{ok}safe cells 1 9 53\n"))
        .at("E033", 4, 16)
        .codes(&["E033"])
        .renders("cell 53 is not on the loop");
    Case::new(&format!("{ok}rolling 3 doubles in a row: end turn\n"))
        .at("E034", 4, 9)
        .renders("doubles need two dice or more");
    Case::new(&format!("{ok}rolling 6 6: furthest out\n"))
        .at("E034", 4, 9)
        .renders("a roll of 2 dice in a game of 1");
    Case::new(&format!("{ok}rolling 6 6 3 times in a row: end turn\n"))
        .at("E034", 4, 9)
        .renders("a roll of 2 dice in a game of 1");
    Case::new(&format!("{ok}rolling 6 0 times in a row: end turn\n"))
        .at("E030", 4, 11)
        .renders("0 times in a row makes no sense");
    Case::new(&format!("{ok}rolling 7 2 times in a row: end turn\n")).at("E034", 4, 9);
    Case::new(&format!("{ok}rolling 6 \"six\": furthest out, end turn\nresting on any: opponents out\noutcome last-home lose\nfinishing order\n")).codes(&[]);
}

#[test]
fn w005_rule_never_applies() {
    Case::new(&format!("{RACE}landing on digit 9 and double: out\n"))
        .at("W005", 7, 12)
        .codes(&["W005"]);
}

#[test]
fn e001_misspelt_effect_and_test() {
    Case::new(&format!("{RACE}landing on digit 4: bak 2\n"))
        .at("E001", 7, 21)
        .renders("did you mean `back`?");
    Case::new(&format!("{RACE}landing on dgit 4: back 2\n"))
        .at("E001", 7, 12)
        .renders("did you mean `digit`?");
}

// ------------------------------------------------------------------ bundled games

#[test]
fn bundled_games_check_clean() {
    for (name, text) in rulebook::bundled::GAMES {
        let mut runs = vec![vec![]];
        // The draughts family (and what extends it) has the kings option.
        if *name == "draughts"
            || (text.contains("extends \"draughts\"") && !text.contains("remove option kings"))
        {
            runs.push(vec![("kings".to_string(), "short".to_string())]);
        }
        // Every value of the file's own options.
        for line in text.lines() {
            if let Some(decl) = line.trim().strip_prefix("option ") {
                let decl = decl.split("//").next().unwrap_or("");
                let (option, values) = decl.split_once('=').unwrap();
                for value in values.split_whitespace().skip(1) {
                    runs.push(vec![(option.trim().to_string(), value.to_string())]);
                }
            }
        }
        for options in runs {
            let checked = check(&BundledLoader, name, &options);
            assert_eq!(checked.render(), "", "{name} {options:?}");
            assert_eq!((checked.errors(), checked.warnings()), (0, 0));
            assert!(
                checked.board().is_some() || checked.race().is_some(),
                "{name}"
            );
        }
    }
}

#[test]
fn bundled_loader_accepts_the_suffix() {
    assert!(check(&BundledLoader, "variants/russian.rules", &[])
        .board()
        .is_some());
}

// ------------------------------------------------------------------ no panic

/// A tiny seeded generator for the mutations (splitmix64).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn check_text(name: &str, text: String) {
    let checked = check_source(
        Source {
            name: name.to_string(),
            text,
        },
        &BundledLoader,
        &[],
    );
    let _ = checked.render();
    assert_eq!(
        checked.board().is_some() || checked.race().is_some(),
        checked.errors() == 0
    );
}

#[test]
fn truncated_files_do_not_panic() {
    for (name, text) in rulebook::bundled::GAMES {
        let boundaries: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        for &end in &boundaries {
            check_text(name, text[..end].to_string());
        }
    }
}

#[test]
fn mutated_files_do_not_panic() {
    const PIECES: &[&[u8]] = &[
        b"{",
        b"}",
        b"(",
        b")",
        b",",
        b":",
        b"=",
        b"-",
        b"\"",
        b"//",
        b"\n",
        b" ",
        b"0",
        b"99",
        b"-1",
        b"z",
        b"last",
        b"(0, 0)",
        b"enemy",
        b"any",
        b"extends \"draughts\"\n",
        b"when kings = short {",
        b"\xc3\xa9",
        b"\xff",
        b"setup",
        b"zone",
        b"man",
        b"king",
        b"track 7\n",
        b"dice 2 d6\n",
        b"landing rules chain\n",
        b"landing on digit 5: go to 200, repeat move\n",
        b"resting on any: forward 2\n",
        b"cells 3-1 ",
        b"roll 6 ",
    ];
    let mut rng = SplitMix(0x5eed_1234);
    for (name, text) in rulebook::bundled::GAMES {
        for _ in 0..300 {
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 => {
                        let piece = PIECES[rng.below(PIECES.len())];
                        bytes.splice(at..at, piece.iter().copied());
                    }
                    1 => {
                        let end = (at + 1 + rng.below(12)).min(bytes.len());
                        bytes.drain(at.min(end)..end);
                    }
                    2 => {
                        if let Some(b) = bytes.get_mut(at) {
                            *b = (rng.next() & 0x7f) as u8;
                        }
                    }
                    _ => {
                        let end = (at + rng.below(40)).min(bytes.len());
                        let copy = bytes[at.min(end)..end].to_vec();
                        let to = rng.below(bytes.len() + 1);
                        bytes.splice(to..to, copy);
                    }
                }
            }
            check_text(name, String::from_utf8_lossy(&bytes).into_owned());
        }
    }
}

#[test]
fn numbers_past_32_bits_are_too_large_wherever_they_are() {
    let text =
        format!("{GAME}end repetition 99999999999999 draw\npdn gametype 99999999999999999999\n");
    Case::new(&text)
        .codes(&["E030", "E030"])
        .renders("`99999999999999` is too large")
        .renders("`99999999999999999999` is too large");
}

#[test]
fn a_long_line_is_cut_around_the_mistake() {
    let line = format!(
        "game \"x\" {} zzz {}\n",
        "board 8 x 8 ".repeat(50_000),
        "side a \"A\" forward north ".repeat(5_000)
    );
    let case = Case::new(&line).at("E001", 1, 600_011);
    let rendered = case.checked.render();
    assert!(
        rendered.len() < 1_000,
        "{} bytes:\n{rendered}",
        rendered.len()
    );
    assert!(
        rendered.contains("1 | ... 8 board") && rendered.contains("x 8  zzz side a"),
        "{rendered}"
    );
    // The underline stays under the mistake.
    let source = rendered.lines().find(|l| l.starts_with("1 |")).unwrap();
    let marks = rendered.lines().find(|l| l.contains("^^^")).unwrap();
    assert_eq!(source.find("zzz"), marks.find("^^^"), "{rendered}");
}

#[test]
fn each_option_value_names_its_own_mistake() {
    // Two options, each with a mistake in a block of a value that is not
    // chosen: both are found (in one round), each named by its value.
    let text = "extends \"draughts\"\noption pace = slow fast\noption size = small big\nwhen pace = fast {\n  piece king \"King\" letter K { slide diagnal }\n}\nwhen size = big {\n  zone far = rank 99\n}\n";
    Case::new(text)
        .at("E002", 5, 38)
        .renders("unknown direction `diagnal` (with option `pace = fast`)")
        .renders("(with option `size = big`)");
}

#[test]
fn when_blocks_are_checked_for_every_value() {
    let text = "extends \"draughts\"\noption pace = slow fast\nwhen pace = fast {\n  piece king \"King\" letter K { slide diagnal }\n}\n";
    let case = Case::new(text)
        .at("E002", 4, 38)
        .renders("unknown direction `diagnal` (with option `pace = fast`)");
    assert!(case.checked.board().is_none());
}

// ------------------------------------------------------------------ removal, precedence, limits

#[test]
fn e050_removed_still_used() {
    Case::new("extends \"draughts\"\nremove piece king\n")
        .at_in("E050", "draughts", 23, 11)
        .renders("removed here");
    // The setup and the promotion both use the start squares.
    Case::new("extends \"always-ready\"\nremove zone start\n").codes(&["E050", "E050"]);
    // Restating what used it makes the removal clean (the far rank is then
    // unused).
    Case::new(
        "extends \"draughts\"\nremove piece king\npiece man \"Man\" {\n  step forward-diagonal\n  jump short diagonal\n}\ndescription \"Draughts without kings.\"\n",
    )
    .codes(&["W001"]);
}

#[test]
fn e051_nothing_to_remove() {
    Case::new("extends \"draughts\"\nremove end repetition\nremove end repetition\n")
        .at("E051", 3, 12)
        .renders("no `end repetition` rule to remove");
    Case::new("extends \"always-ready\"\nremove on end at enemy bse\n")
        .at("E051", 2, 24)
        .renders("did you mean `base`?");
    Case::new("extends \"draughts\"\nremove piece queen\n").at("E051", 2, 14);
}

#[test]
fn w050_never_decides() {
    // Men and kings worth the same: the most value is the most pieces.
    Case::new(
        "extends \"draughts\"\npiece king \"King\" letter K {\n  slide diagonal\n  jump long diagonal\n  value 1\n}\ncapture precedence most pieces, most value\n",
    )
    .at("W050", 7, 33);
    // No capture is ever made by a piece that can't capture.
    Case::new(&format!(
        "{GAME}piece stone \"Stone\" letter S {{ step forward }}\nsetup white stone at a1\ncapture precedence by stone\n"
    ))
    .at("W050", 12, 20)
    .renders("has no capturing move");
    // A kind no piece may capture.
    Case::new(&format!(
        "{GAME}piece king \"King\" letter K {{ slide diagonal  immune to man }}\nsetup white king at b2\ncapture precedence most king\n"
    ))
    .at("W050", 12, 20)
    .renders("no piece can capture");
    Case::new(&format!("{GAME}capture precedence most kng\n")).at("E004", 10, 25);
}

#[test]
fn w051_no_effect() {
    Case::new("extends \"draughts\"\npiece man \"Man\" {\n  step forward-diagonal\n  jump short diagonal no-reverse\n  promote king at far\n}\n")
        .at("W051", 4, 23);
}

#[test]
fn new_constructs_parse_and_check() {
    // Replacement, custodian, limits, decimals and removals together.
    Case::new(
        "extends \"draughts\"\nremove end repetition\npiece king \"King\" letter K {\n  slide diagonal captures\n  jump long diagonal land-beyond no-reverse must-continue\n  value 2.75\n}\ncapture custodian orthogonal multiple\ncapture precedence most value, earliest king, fewest man, by king\ndescription \"Draughts with every new construct.\"\nremove option kings\n",
    )
    .codes(&[]);
    Case::new("extends \"draughts\"\npiece king \"King\" letter K {\n  slide diagonal\n  value 1.2345\n}\n")
        .at("E030", 4, 9);
}
