//! The syntax tree of a rule file, as written: names are not resolved yet.
//! Every node an error may point at carries its span.

use crate::source::Span;
use crate::vocab::board::{LongLanding, MidChainCrown, Notation, PlaceRule, Playable, Whose};
use crate::vocab::race::{Finish, Moment, Outcome, Target, Win};
use crate::vocab::{Elimination, Verdict};

/// A node and where it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The node.
    pub node: T,
    /// Its text.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Wraps a node.
    pub fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

/// A name: an identifier with its span.
pub type Name = Spanned<String>;

/// A whole file.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// Which source file it is.
    pub file: crate::source::FileId,
    /// Its statements, in order.
    pub statements: Vec<Spanned<Statement>>,
}

/// One statement.
#[derive(Clone, Debug)]
pub enum Statement {
    /// `extends "NAME"`
    Extends(Spanned<String>),
    /// `game "Title"`
    Game(Spanned<String>),
    /// `description "text"`
    Description(Spanned<String>),
    /// `board W x H`
    Board {
        /// Files.
        width: Spanned<u32>,
        /// Ranks.
        height: Spanned<u32>,
    },
    /// `playable dark`
    Playable(Playable),
    /// `holes c3 e3`: squares that are not part of the board.
    Holes(Vec<Spanned<SquareRef>>),
    /// `lines DIRS only from dark|light|SQUARES`: the lines along the
    /// directions join only squares of the set.
    Lines(Vec<Spanned<Direction>>, Spanned<LineSquares>),
    /// `opening remove own ...`: one opening move.
    Opening(OpeningFrom),
    /// `notation numeric`
    Notation(Notation),
    /// `pdn gametype 26`
    Pdn(Spanned<u32>),
    /// `side ...`
    Side(SideDecl),
    /// `first SIDE`
    First(Name),
    /// `directions NAME = DIRS`
    Directions {
        /// The set's name.
        name: Name,
        /// Its members.
        dirs: Vec<Spanned<Direction>>,
    },
    /// `zone ...`
    Zone(ZoneDecl),
    /// `piece ...`
    Piece(PieceDecl),
    /// `setup ...`
    Setup(SetupDecl),
    /// `hand [SIDE] N|unlimited`
    Hand {
        /// The side, when one is named (else every side).
        side: Option<Name>,
        /// The pieces in hand (None: `unlimited`), with the number's span.
        count: Option<Spanned<u32>>,
    },
    /// `capture compulsory|optional`
    CaptureCompulsory(bool),
    /// `capture most|free`
    CaptureMost(bool),
    /// `capture removes ...` / `capture converts to KIND`
    CaptureEffect(Effect),
    /// `capture precedence CRITERION, ...`
    CapturePrecedence(Vec<Spanned<CriterionDecl>>),
    /// `capture custodian DIRS [multiple]`
    Custodian {
        /// The directions along which enemies are enclosed.
        dirs: Vec<Spanned<Direction>>,
        /// Whether a run of several enemies is captured too.
        multiple: bool,
        /// Whether an enemy on a corner square is enclosed against the edges.
        corners: bool,
    },
    /// `capture edge hostile|neutral`: whether the board's edge closes the
    /// surrounding of a piece of a kind `captured surrounded` (true:
    /// `hostile`).
    CaptureEdge(bool),
    /// `capture neighbours DIRS`: after a move, the enemies next to the
    /// piece along the directions are captured (or won over).
    Neighbours(Vec<Spanned<Direction>>),
    /// `remove zone NAME` / `remove piece KIND` / `remove on end at ZONE` /
    /// `remove end RULE` / `remove option NAME`
    Remove(RemoveDecl),
    /// `chain must-continue|may-stop`
    Chain(bool),
    /// `crown mid-chain ...`
    Crown(MidChainCrown),
    /// `long-landing ...`
    LongLanding(LongLanding),
    /// `on end at ZONE convert to KIND`
    On {
        /// The zone.
        zone: ZoneRef,
        /// The kind the piece becomes.
        kind: Name,
    },
    /// `end ...`
    End(EndRule),
    /// `option NAME = VALUES`
    Option {
        /// The option.
        name: Name,
        /// Its values; the first is the default.
        values: Vec<Name>,
    },
    /// `track N`
    Track(Spanned<u32>),
    /// `layout SHAPE`: how pictures lay the track out.
    Layout(LayoutDecl),
    /// `players N-M` (`players N`: both the same)
    Players {
        /// The fewest.
        min: Spanned<u32>,
        /// The most.
        max: Spanned<u32>,
    },
    /// `seats NAME ...`
    Seats(Vec<Name>),
    /// `pieces N per player`
    Pieces(Spanned<u32>),
    /// `dice N dF [: FACE = VALUE, ...]`
    Dice {
        /// How many dice.
        count: Spanned<u32>,
        /// Faces of each.
        faces: Spanned<u32>,
        /// What each face moves, as written (none: the face itself).
        values: Vec<(Spanned<u32>, Spanned<u32>)>,
    },
    /// `move by sum`
    MoveBySum,
    /// `move compulsory|optional`
    MoveCompulsory(bool),
    /// `enter always|on F [at start]`
    Enter {
        /// When a piece may enter.
        when: EnterDecl,
        /// `at start`: on its start cell, instead of moving the roll.
        at_start: bool,
        /// `on F or sum S`: S, two dice adding up to it enter a piece too.
        sum: Option<Spanned<u32>>,
    },
    /// `track N loop starts S S ... home H [kept]`
    Circuit(CircuitDecl),
    /// `enter compulsory`
    EnterCompulsory,
    /// `no landing on own pieces`
    NoLandingOnOwn,
    /// `tries N when no piece can move`
    Tries(Spanned<u32>),
    /// `leave start first`
    LeaveStartFirst,
    /// `protected in rows of N`
    Protected(Spanned<u32>),
    /// `no passing rows of N` / `no passing cells ...`
    NoPassing(NoPassingDecl),
    /// `move back when blocked`
    MoveBackWhenBlocked,
    /// `safe cells N N-M ... [closed]` (on paths, named cells)
    Safe(SafeDecl),
    /// `path SEAT: CELLS`
    Path(PathDecl),
    /// `move each die`
    MoveEachDie,
    /// `move doubles N times`
    MoveDoubles(Spanned<u32>),
    /// `move most dice`
    MoveMostDice,
    /// `no landing on N or more opponent pieces`
    NoLandingOnPoint(Spanned<u32>),
    /// `no landing on N or more pieces` (any seat's, a blockade)
    NoLandingOnStack(Spanned<u32>),
    /// `bonus N after capture|home`
    Bonus {
        /// N: how far the bonus moves a piece.
        count: Spanned<u32>,
        /// What earns it.
        after: BonusAfter,
    },
    /// `enter first`
    EnterFirst,
    /// `bear off when all in last N`
    BearOff(Spanned<u32>),
    /// `finish exact or from furthest`
    FinishFurthest,
    /// `score N [when the loser has ...] ["name"]` / `score pieces left`
    Score(ScoreDecl),
    /// `setup SEAT: N on CELL, ...` (race games)
    RaceSetup(RaceSetupDecl),
    /// `throw N sticks [: COUNT = VALUE, ...]`
    Throw {
        /// How many sticks.
        sticks: Spanned<u32>,
        /// What each count of marked sticks moves, as written (none: the
        /// count itself).
        values: Vec<(Spanned<u32>, Spanned<u32>)>,
    },
    /// `outcome first-home|last-home win|lose`
    Outcome(Spanned<Outcome>),
    /// `finishing order`
    FinishingOrder,
    /// `rolling ... : EFFECTS`
    RollRule(RollRuleDecl),
    /// `extra roll never|on doubles|on F`
    ExtraRoll(ExtraDecl),
    /// `finish ...`
    Finish(Finish),
    /// `win first piece|all pieces`
    Win(Win),
    /// `landing rules once|chain`
    LandingRules {
        /// Whether a piece moved by a landing rule lands again.
        chain: bool,
    },
    /// `landing on ...` / `resting on ...`
    CellRule(CellRuleDecl),
    /// `when NAME = VALUE { ... }`
    When {
        /// The option.
        option: Name,
        /// The value.
        value: Name,
        /// The statements that apply then.
        body: Vec<Spanned<Statement>>,
    },
}

/// One criterion of capture precedence, as written.
#[derive(Clone, Debug)]
pub enum CriterionDecl {
    /// `most pieces`
    MostPieces,
    /// `most value`
    MostValue,
    /// `most KIND`
    MostOf(Name),
    /// `fewest KIND`
    FewestOf(Name),
    /// `by KIND`
    By(Name),
    /// `earliest KIND`
    EarliestOf(Name),
}

/// What a `remove` statement drops.
#[derive(Clone, Debug)]
pub enum RemoveDecl {
    /// `remove zone NAME`
    Zone(Name),
    /// `remove piece KIND`
    Piece(Name),
    /// `remove on end at ZONE`
    Trigger(ZoneRef),
    /// `remove end RULE`: the rule's first word, with its span.
    End(Name),
    /// `remove option NAME` (only outside `when` blocks)
    Option(Name),
}

/// `side ID "Name" forward DIR [letter L]`
#[derive(Clone, Debug)]
pub struct SideDecl {
    /// Identifier.
    pub id: Name,
    /// Display name.
    pub name: Spanned<String>,
    /// Forward vector.
    pub forward: Spanned<(i8, i8)>,
    /// Letter, if given.
    pub letter: Option<Spanned<char>>,
}

/// A direction as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Direction {
    /// A name: absolute, relative, built-in or declared set.
    Named(String),
    /// `(dx, dy)`
    Vector(i64, i64),
}

/// A square as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareRef {
    /// `c3`: 0-based file, 1-based rank as written.
    Algebraic {
        /// 0-based file.
        file: u32,
        /// The rank as written (1 = the first rank).
        rank: u32,
    },
    /// `12`
    Number(u32),
}

/// `zone NAME = ...`
#[derive(Clone, Debug)]
pub struct ZoneDecl {
    /// Name.
    pub name: Name,
    /// Squares.
    pub body: ZoneBody,
    /// `no-stop`.
    pub no_stop: bool,
    /// `hostile [when-empty]`: where it is written, and whether only while
    /// empty.
    pub hostile: Option<Spanned<bool>>,
    /// `only KIND ... [closed]`: the kinds, and whether the others may not
    /// pass over it either.
    pub only: Option<(Vec<Name>, bool)>,
}

/// What a zone holds.
#[derive(Clone, Debug)]
pub enum ZoneBody {
    /// One list shared by every side.
    Shared(Vec<Spanned<SquareRef>>),
    /// One list per side.
    PerSide(Vec<(Name, Vec<Spanned<SquareRef>>)>),
    /// `ranks N-M` (or `rank N`: `from == to`).
    Ranks {
        /// First rank.
        from: Spanned<RankNumber>,
        /// Last rank.
        to: Spanned<RankNumber>,
    },
}

/// A rank in a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankNumber {
    /// A number.
    Number(u32),
    /// `last`
    Last,
}

/// A zone as used: whose version of it.
#[derive(Clone, Debug)]
pub struct ZoneRef {
    /// own / `enemy` / `any`.
    pub whose: Whose,
    /// The zone.
    pub name: Name,
}

/// `piece ID "Name" [letter L] { ... }`
#[derive(Clone, Debug)]
pub struct PieceDecl {
    /// Identifier.
    pub id: Name,
    /// Display name.
    pub name: Spanned<String>,
    /// Letter, if given.
    pub letter: Option<Spanned<char>>,
    /// Its lines.
    pub lines: Vec<Spanned<PieceLine>>,
}

/// A move type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// `step`
    Step,
    /// `slide`
    Slide,
    /// `jump short`
    ShortJump,
    /// `jump long`
    LongJump,
    /// `hop`: over an own piece, capturing nothing.
    Hop,
}

/// The squares a `lines` statement joins.
#[derive(Clone, Debug, PartialEq)]
pub enum LineSquares {
    /// `dark`: file + rank even (a1 is dark).
    Dark,
    /// `light`: file + rank odd.
    Light,
    /// The squares listed.
    Squares(Vec<Spanned<SquareRef>>),
}

/// Where an opening move removes a piece of the side to move from.
#[derive(Clone, Debug, PartialEq)]
pub enum OpeningFrom {
    /// `on d4 e5`: one of these squares.
    Squares(Vec<Spanned<SquareRef>>),
    /// `next-to empty DIRS`: a square next to an empty one along the
    /// directions.
    NextToEmpty(Vec<Spanned<Direction>>),
}

/// What the end of a step or slide line does: capture by replacement, or
/// leave a copy behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replacement {
    /// No `captures`: the move ends on an empty square.
    None,
    /// `captures`: the move ends on an empty square or on an enemy, which
    /// is captured.
    Also,
    /// `captures-only`: the move ends on an enemy, which is captured.
    Only,
    /// `clone`: the piece stays and a copy of it goes to the empty square.
    Clone,
}

/// One line of a piece block.
#[derive(Clone, Debug)]
pub enum PieceLine {
    /// `step|slide|jump ... DIRS`, with the line's replacement capture (steps
    /// and slides) and its limits (jumps: bits of `vocab::limit`, each with where it
    /// is written).
    Move(
        MoveKind,
        Vec<Spanned<Direction>>,
        Spanned<Replacement>,
        Vec<Spanned<u8>>,
    ),
    /// `promote KIND at ZONE`
    Promote(Name, ZoneRef),
    /// `immune to KINDS`
    Immune(Vec<Name>),
    /// `value N` or `value N.D`, in thousandths (saturating).
    Value(Spanned<u64>),
    /// `place [anywhere|enclosing|next-to own DIRS]`, with the directions
    /// of `next-to own` (empty for the others).
    Place(PlaceRule, Vec<Spanned<Direction>>),
    /// `captured surrounded [at ZONE]`
    Surrounded(Option<ZoneRef>),
    /// `unarmed`
    Unarmed,
}

/// `setup [SIDE] KIND at PLACE`
#[derive(Clone, Debug)]
pub struct SetupDecl {
    /// The side, when one is named.
    pub side: Option<Name>,
    /// The kind.
    pub kind: Name,
    /// Where.
    pub place: Place,
}

/// Where a setup puts pieces.
#[derive(Clone, Debug)]
pub enum Place {
    /// Explicit squares.
    Squares(Vec<Spanned<SquareRef>>),
    /// A zone.
    Zone(ZoneRef),
}

/// What a jump does to the jumped piece.
#[derive(Clone, Debug)]
pub enum Effect {
    /// `removes at-once`
    RemoveAtOnce,
    /// `removes at-end`
    RemoveAtEnd,
    /// `converts to KIND`
    Convert(Name),
    /// `stacks`: the jumped piece goes under the jumper.
    Stack,
}

/// An `end` statement.
#[derive(Clone, Debug)]
pub enum EndRule {
    /// `end CONDITION OUTCOME`
    Rule {
        /// When it holds.
        condition: EndCondition,
        /// What it means for the side it concerns.
        verdict: Spanned<Verdict>,
    },
    /// `end loser drops-out|ends-game`
    Loser(Elimination),
}

/// The condition of an end rule.
#[derive(Clone, Debug)]
pub enum EndCondition {
    /// `no-pieces`
    NoPieces,
    /// `no-moves`
    NoMoves,
    /// `repetition N`
    Repetition(Spanned<u32>),
    /// `after N plies without EVENTS` (or the older `draw after ...`)
    Without {
        /// Plies.
        plies: Spanned<u32>,
        /// Events that reset the count.
        events: Vec<Spanned<Event>>,
    },
    /// `reach ZONE [KIND]`
    Reach {
        /// The zone, as seen by the side.
        zone: ZoneRef,
        /// Only pieces of this kind count.
        kind: Option<Name>,
    },
    /// `reduced-to N`
    ReducedTo(Spanned<u32>),
    /// `most-pieces`
    MostPieces,
    /// `line [exactly] N [DIRS]`
    Line {
        /// N.
        length: Spanned<u32>,
        /// `exactly`: a row of exactly N (else N or more).
        exact: bool,
        /// The directions (empty: all eight).
        dirs: Vec<Spanned<Direction>>,
    },
    /// `captured KIND`
    Captured(Name),
}

impl EndCondition {
    /// The condition in the words of the language (`no-pieces`,
    /// `reach far man`), without numbers: two rules with the same words
    /// are one rule (a variant's rule replaces the inherited one).
    pub fn key(&self) -> String {
        match self {
            EndCondition::NoPieces => "no-pieces".into(),
            EndCondition::NoMoves => "no-moves".into(),
            EndCondition::Repetition(_) => "repetition".into(),
            EndCondition::Without { .. } => "after".into(),
            EndCondition::Reach { zone, kind } => {
                let whose = match zone.whose {
                    Whose::Own => "",
                    Whose::Enemy => "enemy ",
                    Whose::Any => "any ",
                };
                match kind {
                    Some(k) => format!("reach {whose}{} {}", zone.name.node, k.node),
                    None => format!("reach {whose}{}", zone.name.node),
                }
            }
            EndCondition::ReducedTo(_) => "reduced-to".into(),
            EndCondition::MostPieces => "most-pieces".into(),
            EndCondition::Line { .. } => "line".into(),
            EndCondition::Captured(k) => format!("captured {}", k.node),
        }
    }
}

/// An event that resets a counter.
#[derive(Clone, Debug)]
pub enum Event {
    /// `capture`
    Capture,
    /// `conversion`
    Conversion,
    /// `promotion`
    Promotion,
    /// `move-of KIND`
    MoveOf(Name),
}

/// What earns a bonus move (`bonus N after capture|home`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BonusAfter {
    /// A move that sends an opponent's piece out.
    Capture,
    /// A move that finishes a piece.
    Home,
}

/// `enter always` / `enter on F`.
#[derive(Clone, Copy, Debug)]
pub enum EnterDecl {
    /// Any roll lets a piece enter.
    Always,
    /// A roll where a die shows this face.
    OnFace(Spanned<u32>),
}

/// `extra roll never|on doubles|on F|on F F ...`.
#[derive(Clone, Debug)]
pub enum ExtraDecl {
    /// No extra rolls.
    Never,
    /// When all dice show the same face.
    Doubles(Span),
    /// When a die shows this face (with sticks: when the throw is worth
    /// it).
    OnFace(Spanned<u32>),
    /// `on 1 4 5`: when a die shows one of these faces (with sticks: when
    /// the throw is worth one of these).
    OnValues(Vec<Spanned<u32>>),
}

/// `safe cells N N-M ... [closed]`.
#[derive(Clone, Debug)]
pub struct SafeDecl {
    /// The cells by number: single cells and ranges.
    pub numbers: Vec<(Spanned<u32>, Option<Spanned<u32>>)>,
    /// The cells by name (on paths), as written: `m4`, `a1-a4`.
    pub names: Vec<Name>,
    /// `closed`: no second piece may land there.
    pub closed: Option<Span>,
}

/// `no passing rows of N` / `no passing cells N N-M ...` (on paths, named
/// cells).
#[derive(Clone, Debug)]
pub enum NoPassingDecl {
    /// `rows of N`: N or more pieces of one opponent on cells in a row.
    Rows(Spanned<u32>),
    /// `N on a cell`: N or more pieces of one seat on a cell.
    Stack(Spanned<u32>),
    /// `cells ...`: by number (single cells and ranges) and by name.
    Cells {
        /// The cells by number.
        numbers: Vec<(Spanned<u32>, Option<Spanned<u32>>)>,
        /// The cells by name (on paths), as written.
        names: Vec<Name>,
    },
}

/// `path SEAT: CELLS`: a seat's path through named cells.
#[derive(Clone, Debug)]
pub struct PathDecl {
    /// The seat.
    pub seat: Name,
    /// The cells, as written: `a1-a4 m1-m8 a5-a6`.
    pub cells: Vec<Name>,
}

/// `setup SEAT: N on CELL, ...`: pieces of a race seat that start on the
/// track.
#[derive(Clone, Debug)]
pub struct RaceSetupDecl {
    /// The seat.
    pub seat: Name,
    /// How many pieces on which cell, as written.
    pub counts: Vec<(Spanned<u32>, SetupCell)>,
    /// The statement.
    pub span: Span,
}

/// The cell of a race setup: named (on paths) or numbered.
#[derive(Clone, Debug)]
pub enum SetupCell {
    /// `p24`
    Named(Name),
    /// `24`
    Number(Spanned<u32>),
}

/// `layout SHAPE`: the shape pictures draw a race track in, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutDecl {
    /// `layout rows`: ten a row in reading order (the default).
    Rows,
    /// `layout serpentine N`: rows of N cells, back and forth.
    Serpentine(Spanned<u32>),
    /// `layout spiral`
    Spiral,
    /// `layout cross`
    Cross,
    /// `layout lanes`
    Lanes,
    /// `layout tables`
    Tables,
}

/// `track N loop starts S S ... home H`.
#[derive(Clone, Debug)]
pub struct CircuitDecl {
    /// The cells of the loop.
    pub cells: Spanned<u32>,
    /// The start cell of each seat, in seat order.
    pub starts: Vec<Spanned<u32>>,
    /// The home cells, the finish included.
    pub home: Spanned<u32>,
    /// `kept`: the home cells are where the pieces stay.
    pub kept: Option<Span>,
}

/// What a rule of the roll looks at.
#[derive(Clone, Debug)]
pub enum RollConditionDecl {
    /// `rolling 6 6`: the faces, in any order.
    Faces(Vec<Spanned<u32>>),
    /// `rolling 3 doubles in a row`.
    DoublesInARow(Spanned<u32>),
    /// `rolling 6 3 times in a row`: the faces, then how many times.
    FacesInARow(Vec<Spanned<u32>>, Spanned<u32>),
}

/// `score N [when the loser has ... and has ...] ["name"]` or `score
/// pieces left ["name"]`.
#[derive(Clone, Debug)]
pub struct ScoreDecl {
    /// The points: `Some(N)`, or `None` for `pieces left`.
    pub points: Option<Spanned<u32>>,
    /// The points as written (`2`, `pieces left`).
    pub points_span: Span,
    /// The tests after `when the loser`, all of which must hold (none: the
    /// plain score).
    pub tests: Vec<Spanned<ScoreTestDecl>>,
    /// The name given in quotes, if any.
    pub name: Option<Spanned<String>>,
}

/// One test of a score rule, on the loser's pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreTestDecl {
    /// `has borne off none`
    NoneOff,
    /// `has a piece out or in the winner's last N`: the places, any of
    /// which will do.
    Piece(Vec<Spanned<ScorePlaceDecl>>),
}

/// Where a piece of the loser is, in a score test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScorePlaceDecl {
    /// `out`
    Out,
    /// `in the winner's last N`
    WinnersLast(Spanned<u32>),
}

/// `rolling CONDITION ["name"]: EFFECTS`.
#[derive(Clone, Debug)]
pub struct RollRuleDecl {
    /// When it applies.
    pub condition: RollConditionDecl,
    /// The condition as written.
    pub condition_span: Span,
    /// The name given in quotes, if any.
    pub name: Option<Spanned<String>>,
    /// What it does, in order.
    pub effects: Vec<Spanned<CellEffectDecl>>,
}

/// `landing on TEST ["name"]: EFFECTS` or `resting on ...`.
#[derive(Clone, Debug)]
pub struct CellRuleDecl {
    /// When it is looked at.
    pub moment: Moment,
    /// Its tests, all of which must hold.
    pub tests: Vec<Spanned<TestTerm>>,
    /// The name given in quotes, if any.
    pub name: Option<Spanned<String>>,
    /// What it does, in order.
    pub effects: Vec<Spanned<CellEffectDecl>>,
}

/// A test, maybe negated with `not`.
#[derive(Clone, Debug)]
pub struct TestTerm {
    /// `not`
    pub negated: bool,
    /// The test.
    pub atom: TestAtom,
}

/// One test of a cell rule.
#[derive(Clone, Debug)]
pub enum TestAtom {
    /// `digit D`
    Digit(Spanned<u32>),
    /// `double`
    Double,
    /// `cells N N-M ...`: single cells and ranges.
    Cells(Vec<(Spanned<u32>, Option<Spanned<u32>>)>),
    /// `cells m4 a1-a4 ...`: cells named by the paths, as written (a
    /// number written among them is kept as its text).
    Named(Vec<Name>),
    /// `multiple of K`
    Multiple(Spanned<u32>),
    /// `any`
    Any,
    /// `entering`
    Entering,
    /// `roll F F ...`
    Roll(Vec<Spanned<u32>>),
}

/// One effect of a cell rule, as written.
#[derive(Clone, Copy, Debug)]
pub enum CellEffectDecl {
    /// `forward N`
    Forward(Spanned<u32>),
    /// `back N`
    Back(Spanned<u32>),
    /// `go to N`
    GoTo(Spanned<u32>),
    /// `out`
    Out,
    /// `miss N turns`
    Miss(Spanned<u32>),
    /// `no extra roll`
    NoExtraRoll,
    /// `extra roll`
    ExtraRoll,
    /// `repeat move`
    Repeat,
    /// `held`
    Held,
    /// `bump` (the same as `others out`)
    Bump,
    /// `stop`
    Stop,
    /// `TARGET forward N`, `TARGET out`, ...
    Targeted(Spanned<Target>, TargetAction),
    /// `end turn`
    EndTurn,
}

/// What an effect with a target does, as written.
#[derive(Clone, Copy, Debug)]
pub enum TargetAction {
    /// `forward N`
    Forward(Spanned<u32>),
    /// `back N`
    Back(Spanned<u32>),
    /// `go to N`
    GoTo(Spanned<u32>),
    /// `out`
    Out,
    /// `swap`: to the cell the moved piece came from.
    Swap,
}
