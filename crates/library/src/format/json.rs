//! JSON outputs, each from serde types: the report of `simulate --json`
//! and `merge --json` ([`RunReport`]), of `compare --json`
//! ([`CompareReport`]), the legal moves of `moves --json` ([`MoveItem`]) and
//! the plies of a board game's `replay --json` ([`ReplayPly`]) and the
//! turns of a race game's ([`RaceTurnJson`]). Records are serde types of
//! their own ([`crate::record`]). docs/formats.md describes them and
//! docs/schemas/ holds a JSON Schema for each; the tests check real output
//! against the schemas.
//!
//! Numbers of the reports are rounded to six decimals; a whole number is
//! written without a fraction (`48`, not `48.0`), a number that is not
//! finite as `null`.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::board::game::Sq;
use crate::board::{make, moves_of, MoveList, Position, Tables};
use crate::lab::compare::{measures, Measure};
use crate::lab::stats::{share, wilson};
use crate::lab::Run;
use crate::narrate::event::describe;
use crate::narrate::race::seat_name;
use crate::race::game::{RaceGame, OUT};
use crate::race::{Choice, Event, RaceState, Roll};
use crate::record::race::{choice_json, ChoiceJson};

/// A number rounded to six decimals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Num(pub f64);

impl Serialize for Num {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !self.0.is_finite() {
            return s.serialize_none();
        }
        let x = (self.0 * 1e6).round() / 1e6;
        if x.fract() == 0.0 && x.abs() < 9.0e15 {
            s.serialize_i64(x as i64)
        } else {
            s.serialize_f64(x)
        }
    }
}

/// Key-value pairs written as a JSON object in their order.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairs<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Pairs<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A count with its share of the games and the share's 95% interval.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Count {
    /// How many games.
    pub count: usize,
    /// `count` over the games.
    pub share: Num,
    /// The Wilson 95% interval of the share.
    pub ci95: [Num; 2],
}

impl Count {
    /// `k` games of `n`.
    pub fn of(k: usize, n: usize) -> Count {
        let (lo, hi) = wilson(k, n);
        Count {
            count: k,
            share: Num(share(k, n)),
            ci95: [Num(lo), Num(hi)],
        }
    }
}

/// One seat of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SeatReport {
    /// The seat number, from 1.
    pub seat: usize,
    /// The side's name.
    pub side: String,
    /// The agent that played it.
    pub agent: String,
    /// Its wins.
    pub wins: Count,
    /// Wins plus an equal share of the draws, over the games.
    pub score_share: Num,
}

/// Game lengths in plies.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Length {
    /// Mean.
    pub mean: Num,
    /// Median.
    pub median: Num,
    /// Sample standard deviation.
    pub sd: Num,
    /// Shortest.
    pub min: u32,
    /// Longest.
    pub max: u32,
}

/// Mean and standard deviation of a count per game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PerGame {
    /// Mean.
    pub mean: Num,
    /// Sample standard deviation.
    pub sd: Num,
}

/// The game metrics of a run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Metrics {
    /// 1 when every seat scores the same, 0 when one takes everything.
    pub balance: Num,
    /// The share of games with a winner.
    pub decisiveness: Num,
    /// The share of drawn games.
    pub drawishness: Num,
    /// The mean length in plies.
    pub duration: Num,
    /// Lead changes per game.
    pub lead_changes: Num,
    /// The share of turns lost to passes.
    pub skip_share: Num,
}

/// The report of one run: `simulate --json`, and `merge --json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RunReport {
    /// The game as typed, with its options.
    pub game: String,
    /// Its title.
    pub title: String,
    /// Games played.
    pub games: usize,
    /// Results by seat.
    pub seats: Vec<SeatReport>,
    /// Drawn games.
    pub draws: Count,
    /// Game lengths.
    pub length: Length,
    /// How games ended: reason to count, most frequent first.
    pub endings: Pairs<usize>,
    /// Every rule event of the game: its count per game.
    pub events_per_game: Pairs<PerGame>,
    /// The game metrics.
    pub metrics: Metrics,
    /// The points, in a game whose rules score a win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<PointsReport>,
}

/// The points of a run: by seat, the mean a game, the games of each score.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PointsReport {
    /// The points each seat won: side to points.
    pub by_seat: Pairs<u64>,
    /// Each seat's mean points a game: side to mean.
    pub mean_by_seat: Pairs<Num>,
    /// The winner's mean points a game (games with a score).
    pub mean_points: Num,
    /// How many games ended with each score, fewest points first.
    pub scores: Vec<ScoreCount>,
}

/// The games that ended with one score.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ScoreCount {
    /// The points.
    pub points: u32,
    /// The name the rules give it, when they give one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The games, their share and its interval.
    pub games: Count,
}

impl PointsReport {
    /// The points of a run, or `None` when no game had a score.
    pub fn of(run: &Run) -> Option<PointsReport> {
        let p = &run.summary.points;
        if p.games == 0 {
            return None;
        }
        let seats = &run.info.seats;
        Some(PointsReport {
            by_seat: Pairs(
                seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.clone(), p.by_seat.get(i).copied().unwrap_or(0)))
                    .collect(),
            ),
            mean_by_seat: Pairs(
                seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.clone(), Num(p.seat_mean(i))))
                    .collect(),
            ),
            mean_points: Num(p.mean()),
            scores: p
                .scores
                .iter()
                .map(|&(points, games)| ScoreCount {
                    points,
                    name: p.name(points).map(str::to_string),
                    games: Count::of(games, p.games),
                })
                .collect(),
        })
    }
}

impl RunReport {
    /// The report of a run.
    pub fn of(run: &Run) -> RunReport {
        let s = &run.summary;
        let n = s.games;
        RunReport {
            game: run.info.label.clone(),
            title: run.info.title.clone(),
            games: n,
            seats: run
                .info
                .seats
                .iter()
                .enumerate()
                .map(|(i, name)| SeatReport {
                    seat: i + 1,
                    side: name.clone(),
                    agent: run.info.agents.get(i).cloned().unwrap_or_default(),
                    wins: Count::of(s.wins.get(i).copied().unwrap_or(0), n),
                    score_share: Num(s.score_share(i)),
                })
                .collect(),
            draws: Count::of(s.draws, n),
            length: Length {
                mean: Num(s.length.mean),
                median: Num(s.median),
                sd: Num(s.length.sd()),
                min: s.min,
                max: s.max,
            },
            endings: Pairs(s.endings.clone()),
            events_per_game: Pairs(
                s.events
                    .iter()
                    .map(|(name, m)| {
                        (
                            name.clone(),
                            PerGame {
                                mean: Num(m.mean),
                                sd: Num(m.sd()),
                            },
                        )
                    })
                    .collect(),
            ),
            metrics: Metrics {
                balance: Num(s.balance()),
                decisiveness: Num(s.decisiveness()),
                drawishness: Num(s.drawishness()),
                duration: Num(s.length.mean),
                lead_changes: Num(s.lead_changes.mean),
                skip_share: Num(s.skip_share()),
            },
            points: PointsReport::of(run),
        }
    }
}

/// One measure compared.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Difference {
    /// What is measured.
    pub measure: String,
    /// B minus A.
    pub difference: Num,
    /// The two-sided p-value, where a test applies.
    pub p: Option<Num>,
    /// Whether p < 0.05.
    pub significant: bool,
}

impl Difference {
    fn of(m: &Measure) -> Difference {
        Difference {
            measure: m.name.clone(),
            difference: Num(m.difference()),
            p: m.p.map(Num),
            significant: m.significant(),
        }
    }
}

/// The report of `compare --json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CompareReport {
    /// The first run.
    pub a: RunReport,
    /// The second run.
    pub b: RunReport,
    /// Every measure's difference.
    pub differences: Vec<Difference>,
}

impl CompareReport {
    /// The report of two runs.
    pub fn of(a: &Run, b: &Run) -> CompareReport {
        CompareReport {
            a: RunReport::of(a),
            b: RunReport::of(b),
            differences: measures(a, b).iter().map(Difference::of).collect(),
        }
    }
}

/// One legal move: `moves --json` prints an array of them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveItem {
    /// The move as written (`11-15`, `9x18x27`).
    pub notation: String,
    /// The squares it passes, from the start, in algebraic notation.
    pub path: Vec<String>,
    /// The squares of the pieces it takes, sorted.
    pub captured: Vec<String>,
    /// The position after it.
    pub result: String,
}

impl MoveItem {
    /// The legal moves `list` of `pos`, in their order.
    pub fn all(t: &Tables, pos: &Position, list: &MoveList) -> Vec<MoveItem> {
        let alg = |s: Sq| {
            t.game()
                .squares
                .get(usize::from(s.0))
                .map_or_else(String::new, |i| i.algebraic.clone())
        };
        moves_of(t, list)
            .iter()
            .zip(&list.moves)
            .map(|(m, rec)| {
                let mut path: Vec<String> = m.from.iter().map(|&s| alg(s)).collect();
                path.extend(m.path.iter().map(|&s| alg(s)));
                let mut captured: Vec<String> = m.captured.iter().map(|&s| alg(s)).collect();
                captured.sort();
                let mut after = pos.clone();
                make(t, &mut after, list, rec);
                MoveItem {
                    notation: m.notation.clone(),
                    path,
                    captured,
                    result: after.to_fen(t),
                }
            })
            .collect()
    }
}

/// The JSON array of `moves --json`: one move a line.
pub fn moves_text(moves: &[MoveItem]) -> String {
    let items: Vec<String> = moves.iter().map(to_line).collect();
    format!("[{}]", items.join(",\n"))
}

/// The answer of `moves --explain MOVE --json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Explanation {
    /// The move as asked.
    pub asked: String,
    /// Whether it is a legal move.
    pub legal: bool,
    /// The legal move it means, in the game's notation (`None` when not
    /// legal).
    pub notation: Option<String>,
    /// The legal moves it may still become, when it is the start of
    /// several.
    pub candidates: Vec<String>,
    /// Why it is not legal, naming the rule (`None` when legal).
    pub reason: Option<String>,
}

/// One ply of a board game's record, as `replay --json` prints it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ReplayPly {
    /// The ply's number, from 1.
    pub ply: usize,
    /// The side's identifier.
    pub player: String,
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The rule events it fired.
    pub events: Vec<String>,
    /// The position after it.
    pub position: String,
}

/// One line of JSON text of a value (serde_json cannot fail on these
/// types: their maps have string keys).
pub fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }).to_string())
}

/// Where a race piece is: a cell number, or a label (`out`, `finished`, a
/// home cell such as `h2`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(untagged)]
pub enum PlaceJson {
    /// A cell of the track.
    Cell(u16),
    /// A label.
    Label(String),
}

/// A race game's state after a turn, as `replay --json` prints it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RaceStateJson {
    /// Every seat's pieces.
    pub pieces: Pairs<Vec<PlaceJson>>,
    /// The cells of held pieces, for the seats that have any.
    pub held: Pairs<Vec<String>>,
    /// Turns each seat still has to miss.
    pub skipped_turns_owed: Pairs<u8>,
    /// Who rolls next (`null` when the game is over).
    pub to_roll: Option<String>,
    /// The winner, when there is one.
    pub winner: Option<String>,
    /// Doubles rolled in a row (games with rules of the roll).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doubles_in_a_row: Option<u8>,
    /// The same roll in a row (games with rules of the roll).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_roll_in_a_row: Option<u8>,
    /// The finishing order (games that play on for it, or once more than
    /// one seat is home).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<String>>,
    /// The loser, when the rules name one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loser: Option<String>,
    /// The winner's points, in a game with score rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// The name of the score rule that gave them (`a gammon`), when it
    /// has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// Why the game is drawn, when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
}

impl RaceStateJson {
    /// The state of `game`.
    pub fn of(game: &RaceGame, state: &RaceState) -> RaceStateJson {
        let mut pieces = Vec::new();
        let mut held = Vec::new();
        let mut owed = Vec::new();
        for seat in 0..state.players() {
            let name = seat_name(game, seat).to_string();
            let cells: Vec<PlaceJson> = state
                .pieces(seat)
                .iter()
                .map(|&p| {
                    let label = game.label(seat, p);
                    if p == OUT || p >= game.cells {
                        PlaceJson::Label(label)
                    } else {
                        match label.parse::<u16>() {
                            Ok(cell) => PlaceJson::Cell(cell),
                            Err(_) => PlaceJson::Label(label),
                        }
                    }
                })
                .collect();
            let held_cells: Vec<String> = state
                .pieces(seat)
                .iter()
                .enumerate()
                .filter(|(i, _)| state.is_held(seat, *i))
                .map(|(_, &p)| game.label(seat, p))
                .collect();
            if !held_cells.is_empty() {
                held.push((name.clone(), held_cells));
            }
            pieces.push((name.clone(), cells));
            owed.push((name, state.owed(seat)));
        }
        let rolls = !game.roll_rules.is_empty();
        let order = game.order || state.places().len() > 1;
        let score = state.score(game);
        RaceStateJson {
            pieces: Pairs(pieces),
            held: Pairs(held),
            skipped_turns_owed: Pairs(owed),
            to_roll: (!state.is_over()).then(|| seat_name(game, state.to_roll()).to_string()),
            winner: state.winner().map(|w| seat_name(game, w).to_string()),
            doubles_in_a_row: rolls.then(|| state.doubles_in_a_row()),
            same_roll_in_a_row: rolls.then(|| state.same_in_a_row().0),
            order: order.then(|| {
                state
                    .places()
                    .iter()
                    .map(|&s| seat_name(game, usize::from(s)).to_string())
                    .collect()
            }),
            loser: state.loser().map(|l| seat_name(game, l).to_string()),
            points: score.map(|s| s.points),
            score: score
                .and_then(|s| s.rule)
                .and_then(|i| game.scores.get(i))
                .filter(|r| !r.label.is_empty())
                .map(|r| r.label.clone()),
            draw: state
                .is_drawn()
                .then(|| "no player can ever move again".to_string()),
        }
    }
}

/// One turn of a race game, as `replay --json` prints it: the turn, the
/// player, the dice, the choice, the rule events and the state after it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RaceTurnJson {
    /// The turn's number, from 1.
    pub turn: u32,
    /// The seat's name.
    pub player: String,
    /// The faces rolled.
    pub dice: Vec<u8>,
    /// A cell number, `"enter"` or `"pass"`.
    pub choice: ChoiceJson,
    /// The rule events it fired, in words.
    pub events: Vec<String>,
    /// The state after it.
    pub state: RaceStateJson,
}

impl RaceTurnJson {
    /// Turn `number` of seat `seat`, with the state after it.
    pub fn of(
        game: &RaceGame,
        state: &RaceState,
        number: u32,
        seat: usize,
        roll: &Roll,
        choice: Choice,
        events: &[Event],
    ) -> RaceTurnJson {
        RaceTurnJson {
            turn: number,
            player: seat_name(game, seat).to_string(),
            dice: roll.faces().to_vec(),
            choice: choice_json(game, seat, choice),
            events: events.iter().map(|e| describe(e, game, seat)).collect(),
            state: RaceStateJson::of(game, state),
        }
    }
}
