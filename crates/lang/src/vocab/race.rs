//! The race games' vocabulary as resolved values: the settings of the
//! language (`finish ...`, `win ...`, `enter ...`, `extra roll ...`,
//! `outcome ...`, `track N loop ...`) and the tests and effects of cell
//! rules and rules of the roll. The checker produces them; the compiled
//! race game (`crate::race::game`) is built of them and re-exports them.

use crate::source::Span;

/// The most dice a game may roll at once.
pub const MAX_DICE: usize = 4;

/// The most sticks a game may throw at once (`throw N sticks`): more than
/// dice, for the six or seven cowries of Pachisi. A roll holds this many
/// faces; its sorted faces (`roll 6 3`) only `MAX_DICE`.
pub const MAX_STICKS: usize = 8;

/// What a roll that goes past the finish does (rule 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// Reaching or passing the last cell finishes the piece.
    Past,
    /// Only the exact count finishes; a piece that would pass it can't move.
    Exact,
    /// Only the exact count finishes; the rest of the count goes back from
    /// the finish (from 98, 5+3 counts 2 up to 100 and 6 back, to 94).
    Bounce,
}

/// Who wins (SS-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Win {
    /// The first player to bring a piece to the finish.
    FirstPiece,
    /// The first player to bring all their pieces to the finish.
    AllPieces,
}

/// When a cell rule is looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// On the landing cell: where the dice put the piece (SS-3).
    Landing,
    /// Where the piece comes to rest, after the landing rules (SS-5).
    Resting,
}

/// When an out piece may enter the track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enter {
    /// On any roll.
    Always,
    /// On a roll where a die shows this face (rule 1, SS-1).
    OnFace(u8),
}

/// When a roll earns another roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Never.
    Never,
    /// When all the dice show the same face (rule 8).
    Doubles,
    /// When a die shows this face.
    OnFace(u8),
    /// `extra roll on 1 4 5`: bit `v` set for each value `v`: with sticks,
    /// when the throw is worth one of them; with dice, when a die shows one
    /// of them.
    OnValues(u64),
}

/// A test of a cell rule that looks at the roll, not at the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollTest {
    /// The piece entered the track with this roll.
    Entering,
    /// The dice show these faces, in any order (sorted, `count` of them).
    Faces {
        /// The faces, sorted, unused slots 0.
        faces: [u8; MAX_DICE],
    },
}

/// Which pieces an effect with a target acts on (the moved piece is the
/// default and has effects of its own: `CellEffect::Forward` and so on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The other pieces on the cell, whoever's they are (`others`).
    Others,
    /// The opponents' pieces on the cell (`opponents`).
    Opponents,
    /// The player's piece furthest along its path (`furthest`).
    Furthest,
    /// The player's piece least far along its path, on the track
    /// (`hindmost`).
    Hindmost,
    /// Every piece of the player on the track (`own-pieces`).
    Own,
    /// The player's piece that moved last (`last-moved`).
    LastMoved,
}

impl Target {
    /// The word of the rule file.
    pub fn word(self) -> &'static str {
        match self {
            Target::Others => "others",
            Target::Opponents => "opponents",
            Target::Furthest => "furthest",
            Target::Hindmost => "hindmost",
            Target::Own => "own-pieces",
            Target::LastMoved => "last-moved",
        }
    }

    /// The target with what it does to each piece, as the rule file says
    /// it: `others back 3`, `furthest to 1`, `opponents out`.
    pub fn with(self, action: Action) -> String {
        let t = self.word();
        match action {
            Action::Out => format!("{t} out"),
            Action::Forward(k) => format!("{t} forward {k}"),
            Action::Back(k) => format!("{t} back {k}"),
            Action::GoTo(c) => format!("{t} to {c}"),
            Action::Swap => format!("{t} swap"),
        }
    }

    /// Whether it picks pieces on the cell the rule looks at (and so needs
    /// a cell: not in a rule of the roll).
    pub fn on_cell(self) -> bool {
        matches!(self, Target::Others | Target::Opponents)
    }
}

/// What an effect with a target does to each piece it picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// On by N cells along the piece's own path.
    Forward(u16),
    /// Back by N cells (past the start: out).
    Back(u16),
    /// To cell N.
    GoTo(u16),
    /// Off the track: it must enter again.
    Out,
    /// To the cell the moved piece came from (out, when it entered): the
    /// two change places (`opponents swap`).
    Swap,
}

/// What a cell rule does, in the order written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellEffect {
    /// Moves the piece on by N cells.
    Forward(u16),
    /// Moves the piece back by N cells (past the start: out).
    Back(u16),
    /// Puts the piece on cell N (the last cell: finished).
    GoTo(u16),
    /// The piece leaves the track and must enter again.
    Out,
    /// The player misses their next N turns (SS-12).
    Miss(u8),
    /// An extra roll earned by this roll is lost (SS-6).
    NoExtraRoll,
    /// The player rolls again.
    ExtraRoll,
    /// The piece moves again by the same count, in the same direction.
    Repeat,
    /// The piece can't move until another piece comes to rest on its cell.
    Held,
    /// Moves other pieces, or pieces of the player chosen by a rule:
    /// `opponents out`, `others back 5`, `furthest out`. `bump` is
    /// `others out` (rule 3: the earlier piece goes out).
    Targeted(Target, Action),
    /// No later rule applies to this landing.
    Stop,
    /// The roll is not played: no piece moves (rules of the roll only).
    EndTurn,
}

impl CellEffect {
    /// Whether it moves the piece.
    pub fn moves(self) -> bool {
        matches!(
            self,
            CellEffect::Forward(_)
                | CellEffect::Back(_)
                | CellEffect::GoTo(_)
                | CellEffect::Out
                | CellEffect::Repeat
        )
    }
}

/// A shared circle of cells with a start cell per seat and a private run of
/// home cells: `track 52 loop starts 1 14 27 40 home 6`. A piece's position
/// is then its progress along its seat's own path: 1 is its start cell,
/// `cells` (the length of the loop) the loop cell just before it, after a
/// full lap `cells + 1 ..` its home cells, the last of them the finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circuit {
    /// The cells of the loop, numbered 1..=cells.
    pub cells: u16,
    /// Each seat's start cell, in seat order.
    pub starts: Vec<u16>,
    /// The home cells after the lap; the last one is the finish.
    pub home: u16,
    /// `home N kept`: the home cells are the goal, where the pieces stay: a
    /// piece on one is home, and may still move up by the exact count, one
    /// piece on each cell, passing none of its own. The last home cell is
    /// then the path's last position (`cells`), a home cell like the rest.
    pub kept: bool,
}

/// Each seat's path through named cells: `path red: a1-a4 m1-m8 a5-a6`,
/// `path blue: b1-b4 m1-m8 b5-b6`. The cells are numbered from 1 in the
/// order the paths first name them (that number is what cell rules, safe
/// cells and `spot`s use); a cell on two seats' paths is one cell, shared.
/// A piece's position is its step along its own path: 1 its first cell,
/// the path's length its last, one more (the track's `cells`) finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    /// The cells' names: `names[n - 1]` is cell n.
    pub names: Vec<String>,
    /// Each seat's path in seat order: its cells' numbers, step 1 first
    /// (every path has the same length).
    pub seats: Vec<Vec<u16>>,
}

impl Paths {
    /// The cell under seat `seat`'s piece at step `p`: 0 out, finished or
    /// for a seat without a path.
    #[inline]
    pub fn cell(&self, seat: usize, p: u16) -> u16 {
        match (p.checked_sub(1), self.seats.get(seat)) {
            (Some(i), Some(path)) => path.get(usize::from(i)).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// The step of seat `seat`'s path at cell `cell` (0: not on it).
    pub fn step(&self, seat: usize, cell: u16) -> u16 {
        self.seats
            .get(seat)
            .and_then(|path| path.iter().position(|&c| c == cell))
            .map_or(0, |i| i as u16 + 1)
    }

    /// The name of cell `cell` (empty for no cell).
    pub fn name(&self, cell: u16) -> &str {
        match cell.checked_sub(1) {
            Some(i) => self.names.get(usize::from(i)).map_or("", String::as_str),
            None => "",
        }
    }

    /// The number of the cell named `name`.
    pub fn number(&self, name: &str) -> Option<u16> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as u16 + 1)
    }
}

/// How the pictures of a track (the terminal's, the SVG, the web page)
/// lay its cells out: `layout ...`. It changes no rule of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// Ten cells a row in reading order (the default, `layout rows`).
    #[default]
    Rows,
    /// `layout serpentine N`: rows of N cells from the bottom left, back
    /// and forth, the jumps drawn as ladders and snakes.
    Serpentine(u16),
    /// `layout spiral`: round the outside and in, the finish in the middle.
    Spiral,
    /// `layout cross`: a circuit's loop round a cross of four arms, each
    /// seat's home cells up the middle of an arm.
    Cross,
    /// `layout lanes`: the cells the paths share in a middle row, each
    /// seat's own cells in rows beside it.
    Lanes,
    /// `layout tables`: the cells of the paths in two rows, round like a U.
    Tables,
}

impl Layout {
    /// The length of each arm of a cross round a loop of `loop_cells`
    /// cells (the cells of an arm's middle column, room for its home
    /// cells), or None for a loop that four arms can't share: its cells
    /// must be a multiple of 4, at least 12. A quarter of the loop runs
    /// along one side of an arm, round the corner (a cell of its own when
    /// the quarter is even) and up the next arm's other side to its tip:
    /// 13 cells give arms of 6 (52 cells), 10 cells arms of 4 (40 cells).
    pub fn cross_arm(loop_cells: u16) -> Option<u16> {
        if !loop_cells.is_multiple_of(4) || loop_cells < 12 {
            return None;
        }
        let quarter = loop_cells / 4;
        Some(if quarter % 2 == 1 {
            (quarter - 1) / 2
        } else {
            (quarter - 2) / 2
        })
    }

    /// Its word in a rule file (`serpentine`).
    pub fn word(self) -> &'static str {
        match self {
            Layout::Rows => "rows",
            Layout::Serpentine(_) => "serpentine",
            Layout::Spiral => "spiral",
            Layout::Cross => "cross",
            Layout::Lanes => "lanes",
            Layout::Tables => "tables",
        }
    }
}

/// Who ranks first among the players who got home (issue 16, race part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `outcome first-home win` (the default): the first player home wins;
    /// the game ends then, unless the finishing order is asked for.
    FirstHomeWins,
    /// `outcome first-home lose`: the first player home loses; play goes
    /// on until one player is left, who wins.
    FirstHomeLoses,
    /// `outcome last-home lose`: play goes on until one player is left, who
    /// loses; the first home wins.
    LastHomeLoses,
    /// `outcome last-home win`: play goes on until one player is left, who
    /// wins.
    LastHomeWins,
}

impl Outcome {
    /// Whether the first home ranks first (else the order is reversed: the
    /// last one left ranks first).
    pub fn forward(self) -> bool {
        matches!(self, Outcome::FirstHomeWins | Outcome::LastHomeLoses)
    }
}

/// What a score rule gives the winner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Points {
    /// `score N`: N points.
    Fixed(u32),
    /// `score pieces left`: as many points as the loser has pieces not
    /// finished.
    PiecesLeft,
}

/// A test of a score rule, on the loser's pieces when the game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScoreTest {
    /// `has borne off none`: none of the loser's pieces is finished.
    NoneOff,
    /// `has a piece out or in the winner's last N`: a piece of the loser
    /// is out (when `out`), or on one of the last `winners_last` cells of
    /// the winner's path (0: no such place).
    Piece {
        /// `out` is one of the places.
        out: bool,
        /// `in the winner's last N`: N (0: not one of the places).
        winners_last: u16,
    },
}

/// A score rule: `score 2 when the loser has borne off none "a gammon"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRule {
    /// The points it gives.
    pub points: Points,
    /// Its tests, all of which must hold; none for the plain score (`score
    /// 1`, `score pieces left`).
    pub tests: Vec<ScoreTest>,
    /// The name in quotes (empty when none is given): `a gammon`.
    pub label: String,
}

/// A test of the roll of a rule of the roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollCondition {
    /// The dice show these faces, in any order (sorted, unused slots 0).
    Faces([u8; MAX_DICE]),
    /// This roll is the player's Nth double in a row (extra rolls of one
    /// turn).
    DoublesInARow(u8),
    /// The dice show these faces for the Nth roll in a row of one turn.
    FacesInARow([u8; MAX_DICE], u8),
}

/// A rule of the roll: `rolling 6 6: furthest out`, looked at before the
/// move.
#[derive(Clone, Debug)]
pub struct RollRule {
    /// How events name it.
    pub label: String,
    /// When it applies.
    pub condition: RollCondition,
    /// What it does: effects with a target, turns missed, extra rolls,
    /// `end turn`.
    pub effects: Vec<CellEffect>,
    /// Where it is written.
    pub span: Span,
}

/// A race game's settings, checked: what the rule file says of the track,
/// the players, the dice and the end, as one value that the checked form
/// (`check::race::RaceSpec`) and the compiled game (`race::game::RaceGame`)
/// both hold (and give as their own fields, by `Deref`).
#[derive(Clone, Debug)]
pub struct RaceSettings {
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// The length of a piece's path; its last cell is the finish.
    pub cells: u16,
    /// The loop, when the track is one.
    pub circuit: Option<Circuit>,
    /// The seats' paths through named cells, when the track is described
    /// by them (`path red: ...`).
    pub paths: Option<Paths>,
    /// How pictures lay the track out (`layout ...`).
    pub layout: Layout,
    /// Safe cells, by number.
    pub safe: Vec<bool>,
    /// Closed cells, by number (`safe cells ... closed`): safe, and no
    /// second piece may land there, whoever's it is.
    pub closed: Vec<bool>,
    /// `throw N sticks`: the dice are sticks showing 0 or 1 (`faces` is
    /// then 1, the highest face), the throw their count; a throw of 0
    /// moves nothing.
    pub sticks: bool,
    /// `throw N sticks: 0 = 5, ...`: what each count of marked sticks
    /// moves, indexed by the count (empty: the count itself).
    pub throw_values: Vec<u16>,
    /// `dice N dF: 1 = 1, ..., 6 = 10`: what each face of a die moves,
    /// indexed by the face (empty: the face itself; index 0, a face no die
    /// shows, is 0). Rules that name faces (`enter on 6`, `extra roll on
    /// 6`, doubles, the rules of the roll) still look at the faces.
    pub face_values: Vec<u16>,
    /// `setup SEAT: N on CELL, ...`: where each seat's pieces start, by
    /// seat (its positions, the furthest first; the seat's other pieces
    /// start out). Empty when every piece starts out.
    pub setup: Vec<Vec<u16>>,
    /// `enter ... at start`.
    pub enter_at_start: bool,
    /// The rules of the roll.
    pub roll_rules: Vec<RollRule>,
    /// Who ranks first.
    pub outcome: Outcome,
    /// `finishing order`.
    pub order: bool,
    /// The score rules (`score 2 when the loser has borne off none`), in
    /// the order written; empty when a win is just a win.
    pub scores: Vec<ScoreRule>,
    /// Fewest players.
    pub min_players: u8,
    /// Most players.
    pub max_players: u8,
    /// Seat names.
    pub seats: Vec<String>,
    /// Pieces per player.
    pub pieces: u8,
    /// Dice.
    pub dice: u8,
    /// Faces.
    pub faces: u8,
    /// Entry.
    pub enter: Enter,
    /// Extra rolls.
    pub extra: Extra,
    /// Finish.
    pub finish: Finish,
    /// Win.
    pub win: Win,
    /// Compulsory moves.
    pub compulsory: bool,
    /// Chained landings.
    pub chain: bool,
    /// `no landing on own pieces`: a move may not land or come to rest on
    /// a cell that holds a piece of the mover (MA-1).
    pub no_landing_own: bool,
    /// `enter compulsory`: when a piece may enter, entering is the only
    /// choice (MA-3).
    pub enter_compulsory: bool,
    /// `tries N when no piece can move`: the rolls a turn may have while no
    /// piece of the player can move, whatever the roll (1: the usual one;
    /// MA-4).
    pub tries: u8,
    /// `leave start first`: while the player has pieces out, a piece on
    /// their start cell must move away when it can (MA-5).
    pub leave_start: bool,
    /// `protected in rows of N`: N (0: none). A piece of a seat on one of
    /// N or more cells in a row of its path, each holding a piece of that
    /// seat, can't be hit: no move of another seat lands or comes to rest
    /// on it.
    pub protect_rows: u8,
    /// `no passing rows of N`: N (0: none). No move passes a piece of a
    /// row of N or more pieces of one opponent on cells in a row.
    pub pass_rows: u8,
    /// `no passing N on a cell`: N (0: none). No move passes a cell
    /// holding N or more pieces of one seat, its own included.
    pub pass_stack: u8,
    /// `no passing cells ...`, by number (empty: none): no move forward
    /// passes these cells; a piece must stop on them.
    pub no_passing: Vec<bool>,
    /// `move back when blocked`: when no piece can move forward (nor
    /// enter), a piece moves back by the roll, under the same rules; a pass
    /// only when none can.
    pub move_back: bool,
    /// `move each die`: each die moves a piece on its own, in the order the
    /// player chooses; a turn's choice is the whole sequence
    /// (`race::Choice::Dice`). The rules below need it.
    pub each_die: bool,
    /// `move doubles N times`: the moves a double gives (else one a die).
    pub doubles_times: u8,
    /// `move most dice`: as many dice as can be must be used, and the
    /// larger one when only one can be.
    pub most_dice: bool,
    /// `no landing on N or more opponent pieces`: N (0: no such rule).
    pub point: u8,
    /// `no landing on N or more pieces`: N (0: no such rule). No move lands
    /// on a cell held by N or more pieces of one seat, its own included (a
    /// blockade).
    pub stack_landing: u8,
    /// `enter on F or sum S`: S (0: no such rule). Two dice that add up to
    /// S, used together, enter a piece as a die showing F does.
    pub enter_sum: u8,
    /// `bonus N after capture`: N (0: none). A move that sends an
    /// opponent's piece out earns a move of N by one piece, in the same
    /// turn.
    pub bonus_capture: u8,
    /// `bonus N after home`: N (0: none). A move that finishes a piece
    /// earns a move of N by one piece, in the same turn.
    pub bonus_home: u8,
    /// `enter first`: while a piece of the player is out, no other moves
    /// (unless the player's own pieces close every cell where it enters).
    pub enter_first: bool,
    /// `bear off when all in last N`: N (0: no such rule); a piece
    /// finishes only when every piece of the player is in the last N cells
    /// of its path, or finished.
    pub bear_off_last: u16,
    /// `finish exact or from furthest`: a count past the finish finishes
    /// the piece furthest from it (none of the player's pieces further).
    pub finish_furthest: bool,
    /// Some rule of the choices beyond the usual ones is in force (`no
    /// landing on own pieces`, kept home cells, `enter compulsory`, `leave
    /// start first`, closed cells, sticks and their throws of 0, protected
    /// rows, no passing, moves back): the engine lists the choices of such a game on a path
    /// of its own, and the usual games pay one test of this for it.
    pub restricted: bool,
}

impl RaceSettings {
    /// The lowest face of a die: 0 for sticks, else 1.
    #[inline]
    pub fn low_face(&self) -> u8 {
        u8::from(!self.sticks)
    }

    /// How many faces each die shows (2 for sticks).
    #[inline]
    pub fn sides(&self) -> u8 {
        self.faces + u8::from(self.sticks)
    }

    /// What a roll whose faces add up to `sum` moves: `sum`, or on sticks
    /// with a table of values the table's value.
    #[inline]
    pub fn value_of(&self, sum: u16) -> u16 {
        if self.throw_values.is_empty() {
            sum
        } else {
            self.throw_values
                .get(usize::from(sum))
                .copied()
                .unwrap_or(sum)
        }
    }

    /// What one die showing `face` moves: the face, or its value in the
    /// dice's table.
    #[inline]
    pub fn face_value(&self, face: u8) -> u16 {
        self.face_values
            .get(usize::from(face))
            .copied()
            .unwrap_or(u16::from(face))
    }

    /// Whether no piece may pass cell `cell` (a rule cell number).
    #[inline]
    pub fn is_no_passing(&self, cell: u16) -> bool {
        self.no_passing
            .get(usize::from(cell))
            .copied()
            .unwrap_or(false)
    }

    /// Whether a rule of landing and passing among `protected in rows`,
    /// `no passing ...` and `move back when blocked` is in force.
    #[inline]
    pub fn rows_or_passing(&self) -> bool {
        self.protect_rows > 0
            || self.pass_rows > 0
            || self.pass_stack > 0
            || !self.no_passing.is_empty()
            || self.move_back
    }

    /// Whether a player's own pieces can close a cell to their other
    /// pieces: `no landing on own pieces`, `no landing on N or more pieces`
    /// (a blockade of one's own) or closed cells. Where they can, `enter
    /// first` lapses while they close every cell a piece enters on.
    #[inline]
    pub fn own_pieces_close_cells(&self) -> bool {
        self.no_landing_own || self.stack_landing > 0 || !self.closed.is_empty()
    }

    /// Whether cell `cell` (a rule cell number) is closed.
    #[inline]
    pub fn is_closed(&self, cell: u16) -> bool {
        self.closed.get(usize::from(cell)).copied().unwrap_or(false)
    }

    /// The first position of a piece's path that counts as home: the first
    /// home cell when they are kept, else the finish (`cells`).
    #[inline]
    pub fn home_from(&self) -> u16 {
        match &self.circuit {
            Some(c) if c.kept => c.cells + 1,
            _ => self.cells,
        }
    }
}
