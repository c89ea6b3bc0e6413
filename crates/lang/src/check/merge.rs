//! `extends`, `option` and `when`: the statements of every file of a chain,
//! base first, and of the `when` blocks whose option has their value, merged
//! into one description where a later statement replaces the earlier one of
//! the same name. Also reports definitions made twice in one file.

use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::suggest::unknown_help;
use crate::vocab::board::{LongLanding, MidChainCrown, Notation, Playable};
use crate::vocab::race::{Finish, Moment, Outcome, Win};
use crate::vocab::{Elimination, Verdict};
use std::collections::HashMap;

/// `no passing cells ...` as merged: the cells by number and by name, and
/// the statement.
#[derive(Clone, Debug)]
pub struct PassingCells {
    /// The cells by number: single cells and ranges.
    pub numbers: Vec<(Spanned<u32>, Option<Spanned<u32>>)>,
    /// The cells by name (on paths), as written.
    pub names: Vec<Name>,
    /// The statement.
    pub span: Span,
}

/// The merged statements of a game.
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// `game`
    pub game: Option<Spanned<String>>,
    /// `description`
    pub description: Option<Spanned<String>>,
    /// `board`: width, height, and the statement.
    pub board: Option<(Spanned<u32>, Spanned<u32>)>,
    /// `playable`
    pub playable: Option<Playable>,
    /// `holes SQUARES`, with the statement's span.
    pub holes: Option<(Vec<Spanned<SquareRef>>, Span)>,
    /// `lines DIRS only from SET`, with the statement's span.
    pub lines: Option<(Vec<Spanned<Direction>>, Spanned<LineSquares>, Span)>,
    /// `opening remove own ...` statements in order, each with its span
    /// (a layer that states any replaces them all).
    pub openings: Vec<(OpeningFrom, Span)>,
    /// `notation`
    pub notation: Option<Notation>,
    /// `pdn gametype`
    pub pdn: Option<u32>,
    /// `side`s in seat order.
    pub sides: Vec<Spanned<SideDecl>>,
    /// `first`
    pub first: Option<Name>,
    /// `directions` sets.
    pub directions: Vec<(Name, Vec<Spanned<Direction>>)>,
    /// `zone`s in order.
    pub zones: Vec<ZoneDecl>,
    /// `piece`s in order.
    pub pieces: Vec<PieceDecl>,
    /// `setup`s in order.
    pub setups: Vec<Spanned<SetupDecl>>,
    /// `hand [SIDE] N|unlimited` statements: the side (None: every side),
    /// the count (None: unlimited), the statement; a later one for the
    /// same side (or every side) replaces the earlier.
    pub hands: Vec<(Option<Name>, Option<Spanned<u32>>, Span)>,
    /// `capture compulsory|optional`
    pub compulsory: Option<bool>,
    /// `capture most|free`
    pub most: Option<bool>,
    /// `capture removes|converts`
    pub effect: Option<Effect>,
    /// The `capture stacks` statement, while it is the capture effect.
    pub stacks: Option<Span>,
    /// `capture precedence ...` (replaces `most` and is replaced by it),
    /// with the statement's span.
    pub precedence: Option<(Vec<Spanned<CriterionDecl>>, Span)>,
    /// `capture custodian DIRS [multiple] [corners]`.
    pub custodian: Option<CustodianDecl>,
    /// `capture edge hostile|neutral` (true: `hostile`), with the
    /// statement's span.
    pub edge: Option<(bool, Span)>,
    /// `capture neighbours DIRS`, with the statement's span.
    pub neighbours: Option<(Vec<Spanned<Direction>>, Span)>,
    /// What `remove` statements dropped: what (`zone`, `piece`), the name,
    /// and the `remove` statement.
    pub removed: Vec<(&'static str, String, Span)>,
    /// `chain`
    pub must_continue: Option<bool>,
    /// `crown mid-chain`
    pub crown: Option<MidChainCrown>,
    /// `long-landing`
    pub long_landing: Option<LongLanding>,
    /// `on end at ZONE convert to KIND`, with the statement's span.
    pub triggers: Vec<(ZoneRef, Name, Span)>,
    /// The `end CONDITION OUTCOME` rules in the order written (a variant's
    /// rule with the same condition takes the inherited one's place), with
    /// each statement's span.
    pub ends: Vec<(EndCondition, Spanned<Verdict>, Span)>,
    /// `end loser drops-out|ends-game`
    pub loser: Option<Spanned<Elimination>>,
    /// Whether any `end` statement was given.
    pub any_end: bool,
    /// Where the game is named (for problems of the whole game): the `game`
    /// statement, or the root file's first statement.
    pub anchor: Option<Span>,
    /// `track N`
    pub track: Option<Spanned<u32>>,
    /// `players N-M`
    pub players: Option<(Spanned<u32>, Spanned<u32>)>,
    /// `seats ...`
    pub seats: Option<Vec<Name>>,
    /// `pieces N per player`
    pub pieces_per_player: Option<Spanned<u32>>,
    /// `dice N dF`
    pub dice: Option<(Spanned<u32>, Spanned<u32>)>,
    /// `move compulsory|optional`
    pub move_compulsory: Option<bool>,
    /// `enter ...`
    pub enter: Option<EnterDecl>,
    /// `enter ... at start`
    pub enter_at_start: bool,
    /// `enter compulsory`, where it is written.
    pub enter_compulsory: Option<Span>,
    /// `no landing on own pieces`, where it is written.
    pub no_landing_own: Option<Span>,
    /// `tries N when no piece can move`: N, and the statement.
    pub tries: Option<(Spanned<u32>, Span)>,
    /// `leave start first`, where it is written.
    pub leave_start: Option<Span>,
    /// `protected in rows of N`: N, and the statement.
    pub protected: Option<(Spanned<u32>, Span)>,
    /// `no passing rows of N`: N, and the statement.
    pub passing_rows: Option<(Spanned<u32>, Span)>,
    /// `no passing N on a cell`: N, and the statement.
    pub passing_stack: Option<(Spanned<u32>, Span)>,
    /// `no passing cells ...`: the cells by number and by name, and the
    /// statement.
    pub passing_cells: Option<PassingCells>,
    /// `move back when blocked`, where it is written.
    pub move_back: Option<Span>,
    /// `track N loop starts ... home H`: the loop (`track` holds its cells).
    pub circuit: Option<CircuitDecl>,
    /// `safe cells ...`
    pub safe: Vec<(Spanned<u32>, Option<Spanned<u32>>)>,
    /// `safe cells ...` by name (on paths), as written.
    pub safe_names: Vec<Name>,
    /// `safe cells ... closed`, where `closed` is written.
    pub closed: Option<Span>,
    /// `path SEAT: CELLS`, in order (a later one for the same seat takes
    /// the earlier's place).
    pub paths: Vec<PathDecl>,
    /// `move each die`, where it is written.
    pub each_die: Option<Span>,
    /// `move doubles N times`: N.
    pub doubles_times: Option<Spanned<u32>>,
    /// `move most dice`, where it is written.
    pub most_dice: Option<Span>,
    /// `no landing on N or more opponent pieces`: N.
    pub point: Option<Spanned<u32>>,
    /// `enter first`, where it is written.
    pub enter_first: Option<Span>,
    /// `no landing on N or more pieces`
    pub stack_landing: Option<Spanned<u32>>,
    /// `enter on F or sum S`: S.
    pub enter_sum: Option<Spanned<u32>>,
    /// `bonus N after capture`: N, and the statement.
    pub bonus_capture: Option<(Spanned<u32>, Span)>,
    /// `bonus N after home`: N, and the statement.
    pub bonus_home: Option<(Spanned<u32>, Span)>,
    /// `bear off when all in last N`: N, and the statement.
    pub bear_off: Option<(Spanned<u32>, Span)>,
    /// `finish exact or from furthest`, where it is written (a later
    /// `finish` clears it).
    pub finish_furthest: Option<Span>,
    /// `setup SEAT: N on CELL, ...` (race games), in order (a later one
    /// for the same seat takes the earlier's place).
    pub race_setups: Vec<RaceSetupDecl>,
    /// `layout ...`, with the statement's span.
    pub layout: Option<(LayoutDecl, Span)>,
    /// `throw N sticks`: N (instead of `dice`).
    pub throw: Option<Spanned<u32>>,
    /// The table of values of the last `throw N sticks: C = V, ...` or
    /// `dice N dF: F = V, ...`, as written (empty: none).
    pub throw_values: Vec<(Spanned<u32>, Spanned<u32>)>,
    /// `outcome ...`
    pub outcome: Option<Spanned<Outcome>>,
    /// `finishing order`
    pub order: bool,
    /// `rolling ...` rules, in order, with their statements' spans.
    pub roll_rules: Vec<Spanned<RollRuleDecl>>,
    /// The layer (0 the base file, more for each file or `when` block
    /// after it) of the `track`, `dice` and `extra roll` statements in
    /// force: of two statements that don't fit together, the later one is
    /// the one a house rule restated.
    pub layers: RaceLayers,
    /// `extra roll ...`
    pub extra: Option<ExtraDecl>,
    /// `finish ...`
    pub finish: Option<Finish>,
    /// `win ...`
    pub win: Option<Win>,
    /// `landing rules once|chain`
    pub chain: Option<bool>,
    /// `landing on` and `resting on` rules, in order, with their statements'
    /// spans.
    pub cell_rules: Vec<Spanned<CellRuleDecl>>,
    /// `score ...` rules, in order, with their statements' spans (a layer
    /// that states any replaces them all).
    pub scores: Vec<Spanned<ScoreDecl>>,
    /// Statements that only board games have: keyword and where.
    pub board_only: Vec<(&'static str, Span)>,
    /// Statements that only race games have: keyword and where.
    pub race_only: Vec<(&'static str, Span)>,
}

/// The layers of some race statements (see `Merged::layers`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceLayers {
    /// Of `track`.
    pub track: usize,
    /// Of `dice`.
    pub dice: usize,
    /// Of `extra roll`.
    pub extra: usize,
    /// Of `enter`.
    pub enter: usize,
}

/// `capture custodian ...` as written.
#[derive(Clone, Debug)]
pub struct CustodianDecl {
    /// The directions.
    pub dirs: Vec<Spanned<Direction>>,
    /// `multiple`
    pub multiple: bool,
    /// `corners`
    pub corners: bool,
}

/// A declared option: its name and values.
struct OptionDecl {
    name: Name,
    values: Vec<Name>,
    /// A later `remove option` dropped it: no longer offered, its first
    /// value in force.
    removed: bool,
}

/// Merges `files` (base first) under the given option values.
pub fn merge(files: &[File], options: &[(String, String)], diags: &mut Vec<Diagnostic>) -> Merged {
    let declared = collect_options(files, diags);
    let chosen = choose_values(&declared, options, diags);
    let mut merger = Merger {
        merged: Merged::default(),
        index: Index::new(),
        declared: &declared,
        chosen,
        setup_layer: None,
        cell_rule_layer: None,
        roll_rule_layer: None,
        score_layer: None,
        opening_layer: None,
        next_layer: 0,
    };
    for file in files {
        let mut seen = HashMap::new();
        merger.apply_all(&file.statements, &mut seen, diags);
    }
    let mut merged = merger.merged;
    merged.anchor = merged.game.as_ref().map(|g| g.span).or_else(|| {
        files.last().map(|f| match f.statements.first() {
            Some(s) => Span {
                end: s.span.begin + keyword(&s.node).len() as u32,
                ..s.span
            },
            // An empty file: point at its start.
            None => Span {
                file: f.file,
                begin: 0,
                end: 0,
            },
        })
    });
    merged
}

/// The options of every file (a later file's option replaces the earlier of
/// the same name; `remove option` drops an earlier one).
fn collect_options(files: &[File], diags: &mut Vec<Diagnostic>) -> Vec<OptionDecl> {
    let mut declared: Vec<OptionDecl> = Vec::new();
    for file in files {
        for statement in &file.statements {
            if let Statement::Remove(RemoveDecl::Option(name)) = &statement.node {
                match declared
                    .iter_mut()
                    .find(|d| d.name.node == name.node && !d.removed)
                {
                    Some(d) => d.removed = true,
                    None => {
                        let names = declared
                            .iter()
                            .filter(|d| !d.removed)
                            .map(|d| d.name.node.as_str());
                        let declare = if names.clone().next().is_none() {
                            "`remove option` drops an option an earlier file declared, and the files this one extends declare none: remove this line"
                        } else {
                            "`remove option` drops an option an earlier file declared"
                        };
                        diags.push(unknown_name(
                            Code::NothingToRemove,
                            format!("no option `{}` to remove", name.node),
                            name,
                            "not declared by the files this one extends",
                            names,
                            declare,
                        ));
                    }
                }
                continue;
            }
            if let Statement::Option { name, values } = &statement.node {
                let mut seen: HashMap<&str, Span> = HashMap::new();
                for v in values {
                    if let Some(first) = seen.insert(&v.node, v.span) {
                        diags.push(duplicate(
                            &format!("value `{}` of option `{}`", v.node, name.node),
                            v.span,
                            first,
                        ));
                    }
                }
                let decl = OptionDecl {
                    name: name.clone(),
                    values: values.clone(),
                    removed: false,
                };
                match declared.iter_mut().find(|d| d.name.node == name.node) {
                    Some(d) => *d = decl,
                    None => declared.push(decl),
                }
            }
        }
    }
    declared
}

/// Every declared option with its values (for checking each value), but
/// those a `remove option` dropped.
pub fn declared_options(files: &[File]) -> Vec<(String, Vec<String>)> {
    collect_options(files, &mut Vec::new())
        .into_iter()
        .filter(|d| !d.removed)
        .map(|d| (d.name.node, d.values.into_iter().map(|v| v.node).collect()))
        .collect()
}

/// The (option, value) pairs that some `when` block names, with the spans
/// of their blocks: only these values change the game.
pub fn when_values(files: &[File]) -> HashMap<(String, String), Vec<Span>> {
    let mut out: HashMap<(String, String), Vec<Span>> = HashMap::new();
    for file in files {
        for statement in &file.statements {
            if let Statement::When { option, value, .. } = &statement.node {
                out.entry((option.node.clone(), value.node.clone()))
                    .or_default()
                    .push(statement.span);
            }
        }
    }
    out
}

/// The value of each declared option: given, or the default.
fn choose_values(
    declared: &[OptionDecl],
    given: &[(String, String)],
    diags: &mut Vec<Diagnostic>,
) -> HashMap<String, String> {
    let mut chosen: HashMap<String, String> = declared
        .iter()
        .filter_map(|d| {
            d.values
                .first()
                .map(|v| (d.name.node.clone(), v.node.clone()))
        })
        .collect();
    for (name, value) in given {
        let offered = declared.iter().filter(|d| !d.removed);
        let Some(decl) = offered.clone().find(|d| d.name.node == *name) else {
            let names = offered.map(|d| d.name.node.as_str());
            diags.push(
                Diagnostic::new(Code::UnknownOption, format!("unknown option `{name}`")).help(
                    unknown_help(name, names, "this game declares no such `option`"),
                ),
            );
            continue;
        };
        if decl.values.iter().any(|v| v.node == *value) {
            chosen.insert(name.clone(), value.clone());
        } else {
            let values = decl.values.iter().map(|v| v.node.as_str());
            diags.push(
                Diagnostic::new(
                    Code::UnknownOptionValue,
                    format!("option `{name}` has no value `{value}`"),
                )
                .secondary(decl.name.span, "the option is declared here")
                .help(unknown_help(
                    value,
                    values,
                    "choose one of the declared values",
                )),
            );
        }
    }
    chosen
}

struct Merger<'a> {
    merged: Merged,
    /// Where the named items of `merged` stand.
    index: Index,
    declared: &'a [OptionDecl],
    chosen: HashMap<String, String>,
    /// The layer (file or `when` block) whose setups are in force: a layer
    /// with setups replaces all earlier ones.
    setup_layer: Option<usize>,
    /// The same for cell rules: a layer that states any replaces them all,
    /// so that a house rule restates the whole order.
    cell_rule_layer: Option<usize>,
    /// The same for the rules of the roll.
    roll_rule_layer: Option<usize>,
    /// The same for the score rules.
    score_layer: Option<usize>,
    /// The same for the opening moves.
    opening_layer: Option<usize>,
    next_layer: usize,
}

/// Definitions already made in one layer: key -> where.
type Seen = HashMap<String, (String, Span)>;

impl Merger<'_> {
    /// Applies one layer of statements.
    fn apply_all(
        &mut self,
        statements: &[Spanned<Statement>],
        seen: &mut Seen,
        diags: &mut Vec<Diagnostic>,
    ) {
        let layer = self.next_layer;
        self.next_layer += 1;
        for statement in statements {
            if let Some((key, what, span)) = key(statement) {
                if let Some((_, first)) = seen.get(&key) {
                    diags.push(duplicate(&what, span, *first));
                } else {
                    seen.insert(key, (what, span));
                }
            }
            self.apply(statement, layer, diags);
        }
    }

    fn apply(&mut self, statement: &Spanned<Statement>, layer: usize, diags: &mut Vec<Diagnostic>) {
        let m = &mut self.merged;
        let word = keyword(&statement.node);
        let at = Span {
            end: statement.span.begin + word.len() as u32,
            ..statement.span
        };
        match kind_of(&statement.node) {
            Some(GameKind::Board) => m.board_only.push((word, at)),
            Some(GameKind::Race) => m.race_only.push((word, at)),
            None => {}
        }
        match &statement.node {
            Statement::Extends(_) | Statement::Option { .. } => {}
            Statement::Game(s) => m.game = Some(s.clone()),
            Statement::Description(s) => m.description = Some(s.clone()),
            Statement::Board { width, height } => m.board = Some((*width, *height)),
            Statement::Playable(p) => m.playable = Some(*p),
            Statement::Holes(list) => m.holes = Some((list.clone(), statement.span)),
            Statement::Lines(dirs, set) => {
                m.lines = Some((dirs.clone(), set.clone(), statement.span))
            }
            Statement::Opening(from) => {
                if self.opening_layer != Some(layer) {
                    m.openings.clear();
                    self.opening_layer = Some(layer);
                }
                m.openings.push((from.clone(), statement.span));
            }
            Statement::Neighbours(dirs) => m.neighbours = Some((dirs.clone(), statement.span)),
            Statement::CaptureEdge(hostile) => m.edge = Some((*hostile, statement.span)),
            Statement::Notation(n) => m.notation = Some(*n),
            Statement::Pdn(n) => m.pdn = Some(n.node),
            Statement::Side(side) => {
                let side = Spanned::new(side.clone(), statement.span);
                let key = side.node.id.node.clone();
                upsert(&mut self.index, "side", &mut m.sides, side, key);
            }
            Statement::First(side) => m.first = Some(side.clone()),
            Statement::Directions { name, dirs } => {
                let item = (name.clone(), dirs.clone());
                upsert(
                    &mut self.index,
                    "directions",
                    &mut m.directions,
                    item,
                    name.node.clone(),
                );
            }
            Statement::Zone(zone) => {
                upsert(
                    &mut self.index,
                    "zone",
                    &mut m.zones,
                    zone.clone(),
                    zone.name.node.clone(),
                );
            }
            Statement::Piece(piece) => {
                upsert(
                    &mut self.index,
                    "piece",
                    &mut m.pieces,
                    piece.clone(),
                    piece.id.node.clone(),
                );
            }
            Statement::Setup(setup) => {
                if self.setup_layer != Some(layer) {
                    m.setups.clear();
                    self.setup_layer = Some(layer);
                }
                m.setups.push(Spanned::new(setup.clone(), statement.span));
            }
            Statement::Hand { side, count } => {
                let key = side.as_ref().map_or_else(String::new, |n| n.node.clone());
                let item = (side.clone(), *count, statement.span);
                upsert(&mut self.index, "hand", &mut m.hands, item, key);
            }
            Statement::CaptureCompulsory(b) => m.compulsory = Some(*b),
            Statement::CaptureMost(b) => {
                m.most = Some(*b);
                m.precedence = None;
            }
            Statement::CapturePrecedence(list) => {
                m.precedence = Some((list.clone(), statement.span));
                m.most = None;
            }
            Statement::Custodian {
                dirs,
                multiple,
                corners,
            } => {
                m.custodian = Some(CustodianDecl {
                    dirs: dirs.clone(),
                    multiple: *multiple,
                    corners: *corners,
                });
            }
            Statement::Remove(what) => {
                remove(m, what, statement.span, diags);
                // The lists shifted: index them again.
                self.index = index_of(m);
            }
            Statement::CaptureEffect(e) => {
                m.effect = Some(e.clone());
                m.stacks = matches!(e, Effect::Stack).then_some(statement.span);
            }
            Statement::Chain(b) => m.must_continue = Some(*b),
            Statement::Crown(c) => m.crown = Some(*c),
            Statement::LongLanding(l) => m.long_landing = Some(*l),
            Statement::On { zone, kind } => {
                let trigger = (zone.clone(), kind.clone(), statement.span);
                let key = zone.name.node.clone();
                upsert(&mut self.index, "trigger", &mut m.triggers, trigger, key);
            }
            Statement::End(rule) => {
                m.any_end = true;
                match rule {
                    EndRule::Rule { condition, verdict } => {
                        let end = (condition.clone(), *verdict, statement.span);
                        let key = condition.key();
                        upsert(&mut self.index, "end", &mut m.ends, end, key);
                    }
                    EndRule::Loser(l) => m.loser = Some(Spanned::new(*l, statement.span)),
                }
            }
            Statement::Track(n) => {
                m.track = Some(*n);
                m.paths.clear();
                m.circuit = None;
                m.layers.track = layer;
            }
            Statement::Circuit(c) => {
                m.track = Some(c.cells);
                m.paths.clear();
                m.circuit = Some(c.clone());
                m.layers.track = layer;
            }
            Statement::Safe(decl) => {
                m.safe = decl.numbers.clone();
                m.safe_names = decl.names.clone();
                m.closed = decl.closed;
            }
            Statement::Path(path) => {
                m.track = None;
                m.circuit = None;
                m.layers.track = layer;
                match m.paths.iter_mut().find(|p| p.seat.node == path.seat.node) {
                    Some(old) => *old = path.clone(),
                    None => m.paths.push(path.clone()),
                }
            }
            Statement::RaceSetup(setup) => {
                match m
                    .race_setups
                    .iter_mut()
                    .find(|s| s.seat.node == setup.seat.node)
                {
                    Some(old) => *old = setup.clone(),
                    None => m.race_setups.push(setup.clone()),
                }
            }
            Statement::Layout(l) => m.layout = Some((*l, statement.span)),
            Statement::Throw { sticks, values } => {
                m.throw = Some(*sticks);
                m.throw_values = values.clone();
                m.dice = None;
                m.layers.dice = layer;
            }
            Statement::Outcome(o) => m.outcome = Some(*o),
            Statement::FinishingOrder => m.order = true,
            Statement::RollRule(rule) => {
                if self.roll_rule_layer != Some(layer) {
                    m.roll_rules.clear();
                    self.roll_rule_layer = Some(layer);
                }
                m.roll_rules
                    .push(Spanned::new(rule.clone(), statement.span));
            }
            Statement::Players { min, max } => m.players = Some((*min, *max)),
            Statement::Seats(names) => m.seats = Some(names.clone()),
            Statement::Pieces(n) => m.pieces_per_player = Some(*n),
            Statement::Dice {
                count,
                faces,
                values,
            } => {
                m.dice = Some((*count, *faces));
                m.throw_values = values.clone();
                m.throw = None;
                m.layers.dice = layer;
            }
            Statement::MoveBySum => {}
            Statement::MoveCompulsory(b) => m.move_compulsory = Some(*b),
            Statement::Enter {
                when,
                at_start,
                sum,
            } => {
                m.enter = Some(*when);
                m.enter_at_start = *at_start;
                m.enter_sum = *sum;
                m.layers.enter = layer;
            }
            Statement::EnterCompulsory => m.enter_compulsory = Some(statement.span),
            Statement::NoLandingOnOwn => m.no_landing_own = Some(statement.span),
            Statement::Tries(n) => m.tries = Some((*n, statement.span)),
            Statement::LeaveStartFirst => m.leave_start = Some(statement.span),
            Statement::Protected(n) => m.protected = Some((*n, statement.span)),
            Statement::NoPassing(NoPassingDecl::Rows(n)) => {
                m.passing_rows = Some((*n, statement.span))
            }
            Statement::NoPassing(NoPassingDecl::Stack(n)) => {
                m.passing_stack = Some((*n, statement.span))
            }
            Statement::NoPassing(NoPassingDecl::Cells { numbers, names }) => {
                m.passing_cells = Some(PassingCells {
                    numbers: numbers.clone(),
                    names: names.clone(),
                    span: statement.span,
                })
            }
            Statement::MoveBackWhenBlocked => m.move_back = Some(statement.span),
            Statement::ExtraRoll(e) => {
                m.extra = Some(e.clone());
                m.layers.extra = layer;
            }
            Statement::Finish(f) => {
                m.finish = Some(*f);
                m.finish_furthest = None;
            }
            Statement::FinishFurthest => {
                m.finish = Some(Finish::Exact);
                m.finish_furthest = Some(statement.span);
            }
            Statement::MoveEachDie => m.each_die = Some(statement.span),
            Statement::MoveDoubles(n) => m.doubles_times = Some(*n),
            Statement::MoveMostDice => m.most_dice = Some(statement.span),
            Statement::NoLandingOnPoint(n) => m.point = Some(*n),
            Statement::NoLandingOnStack(n) => m.stack_landing = Some(*n),
            Statement::Bonus { count, after } => {
                let bonus = Some((*count, statement.span));
                match after {
                    BonusAfter::Capture => m.bonus_capture = bonus,
                    BonusAfter::Home => m.bonus_home = bonus,
                }
            }
            Statement::EnterFirst => m.enter_first = Some(statement.span),
            Statement::BearOff(n) => m.bear_off = Some((*n, statement.span)),
            Statement::Score(rule) => {
                if self.score_layer != Some(layer) {
                    m.scores.clear();
                    self.score_layer = Some(layer);
                }
                m.scores.push(Spanned::new(rule.clone(), statement.span));
            }
            Statement::Win(w) => m.win = Some(*w),
            Statement::LandingRules { chain } => m.chain = Some(*chain),
            Statement::CellRule(rule) => {
                if self.cell_rule_layer != Some(layer) {
                    m.cell_rules.clear();
                    self.cell_rule_layer = Some(layer);
                }
                m.cell_rules
                    .push(Spanned::new(rule.clone(), statement.span));
            }
            Statement::When {
                option,
                value,
                body,
            } => {
                if self.when_applies(option, value, diags) {
                    let mut seen = HashMap::new();
                    self.apply_all(body, &mut seen, diags);
                }
            }
        }
    }

    /// Whether a `when` block is in force; reports an unknown option or
    /// value.
    fn when_applies(&self, option: &Name, value: &Name, diags: &mut Vec<Diagnostic>) -> bool {
        let Some(decl) = self.declared.iter().find(|d| d.name.node == option.node) else {
            let names = self.declared.iter().map(|d| d.name.node.as_str());
            diags.push(unknown_name(
                Code::UnknownOption,
                format!("unknown option `{}`", option.node),
                option,
                "no option of this name",
                names,
                "declare it first: `option NAME = VALUE ...`",
            ));
            return false;
        };
        if !decl.values.iter().any(|v| v.node == value.node) {
            let values = decl.values.iter().map(|v| v.node.as_str());
            diags.push(
                unknown_name(
                    Code::UnknownOptionValue,
                    format!("option `{}` has no value `{}`", option.node, value.node),
                    value,
                    "not a value of this option",
                    values,
                    "add the value to the `option` statement",
                )
                .secondary(decl.name.span, "the option is declared here"),
            );
            return false;
        }
        self.chosen.get(&option.node) == Some(&value.node)
    }
}

/// The keyword a statement starts with.
fn keyword(statement: &Statement) -> &'static str {
    match statement {
        Statement::Extends(_) => "extends",
        Statement::Game(_) => "game",
        Statement::Description(_) => "description",
        Statement::Board { .. } => "board",
        Statement::Playable(_) => "playable",
        Statement::Holes(_) => "holes",
        Statement::Lines(..) => "lines",
        Statement::Opening(_) => "opening",
        Statement::Notation(_) => "notation",
        Statement::Pdn(_) => "pdn",
        Statement::Side(_) => "side",
        Statement::First(_) => "first",
        Statement::Directions { .. } => "directions",
        Statement::Zone(_) => "zone",
        Statement::Piece(_) => "piece",
        Statement::Setup(_) => "setup",
        Statement::Hand { .. } => "hand",
        Statement::CaptureCompulsory(_)
        | Statement::CaptureMost(_)
        | Statement::CaptureEffect(_)
        | Statement::CapturePrecedence(_)
        | Statement::Custodian { .. }
        | Statement::Neighbours(_)
        | Statement::CaptureEdge(_) => "capture",
        Statement::Remove(_) => "remove",
        Statement::Chain(_) => "chain",
        Statement::Crown(_) => "crown",
        Statement::LongLanding(_) => "long-landing",
        Statement::On { .. } => "on",
        Statement::End(_) => "end",
        Statement::Option { .. } => "option",
        Statement::When { .. } => "when",
        Statement::Track(_) | Statement::Circuit(_) => "track",
        Statement::Safe(_) => "safe",
        Statement::Path(_) => "path",
        Statement::RaceSetup(_) => "setup",
        Statement::Throw { .. } => "throw",
        Statement::Layout(_) => "layout",
        Statement::Outcome(_) => "outcome",
        Statement::FinishingOrder => "finishing",
        Statement::RollRule(_) => "rolling",
        Statement::Players { .. } => "players",
        Statement::Seats(_) => "seats",
        Statement::Pieces(_) => "pieces",
        Statement::Dice { .. } => "dice",
        Statement::MoveBySum
        | Statement::MoveCompulsory(_)
        | Statement::MoveEachDie
        | Statement::MoveDoubles(_)
        | Statement::MoveMostDice => "move",
        Statement::Enter { .. } | Statement::EnterCompulsory | Statement::EnterFirst => "enter",
        Statement::NoLandingOnOwn
        | Statement::NoLandingOnPoint(_)
        | Statement::NoLandingOnStack(_) => "no",
        Statement::Bonus { .. } => "bonus",
        Statement::BearOff(_) => "bear",
        Statement::Score(_) => "score",
        Statement::FinishFurthest => "finish",
        Statement::Tries(_) => "tries",
        Statement::LeaveStartFirst => "leave",
        Statement::Protected(_) => "protected",
        Statement::NoPassing(_) => "no",
        Statement::MoveBackWhenBlocked => "move",
        Statement::ExtraRoll(_) => "extra",
        Statement::Finish(_) => "finish",
        Statement::Win(_) => "win",
        Statement::LandingRules { .. } => "landing",
        Statement::CellRule(rule) => match rule.moment {
            Moment::Landing => "landing",
            Moment::Resting => "resting",
        },
    }
}

/// Board games and race games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameKind {
    Board,
    Race,
}

/// The kind of game a statement belongs to, `None` for statements of both.
fn kind_of(statement: &Statement) -> Option<GameKind> {
    match statement {
        Statement::Extends(_)
        | Statement::Game(_)
        | Statement::Description(_)
        | Statement::Option { .. }
        | Statement::Remove(RemoveDecl::Option(_))
        | Statement::When { .. } => None,
        Statement::Board { .. }
        | Statement::Playable(_)
        | Statement::Holes(_)
        | Statement::Lines(..)
        | Statement::Opening(_)
        | Statement::Neighbours(_)
        | Statement::CaptureEdge(_)
        | Statement::Notation(_)
        | Statement::Pdn(_)
        | Statement::Side(_)
        | Statement::First(_)
        | Statement::Directions { .. }
        | Statement::Zone(_)
        | Statement::Piece(_)
        | Statement::Setup(_)
        | Statement::Hand { .. }
        | Statement::CaptureCompulsory(_)
        | Statement::CaptureMost(_)
        | Statement::CaptureEffect(_)
        | Statement::CapturePrecedence(_)
        | Statement::Custodian { .. }
        | Statement::Remove(_)
        | Statement::Chain(_)
        | Statement::Crown(_)
        | Statement::LongLanding(_)
        | Statement::On { .. }
        | Statement::End(_) => Some(GameKind::Board),
        Statement::Track(_)
        | Statement::Circuit(_)
        | Statement::Safe(_)
        | Statement::Path(_)
        | Statement::RaceSetup(_)
        | Statement::Throw { .. }
        | Statement::Layout(_)
        | Statement::Outcome(_)
        | Statement::FinishingOrder
        | Statement::RollRule(_)
        | Statement::Players { .. }
        | Statement::Seats(_)
        | Statement::Pieces(_)
        | Statement::Dice { .. }
        | Statement::MoveBySum
        | Statement::MoveCompulsory(_)
        | Statement::MoveEachDie
        | Statement::MoveDoubles(_)
        | Statement::MoveMostDice
        | Statement::NoLandingOnPoint(_)
        | Statement::NoLandingOnStack(_)
        | Statement::Bonus { .. }
        | Statement::EnterFirst
        | Statement::BearOff(_)
        | Statement::Score(_)
        | Statement::FinishFurthest
        | Statement::Enter { .. }
        | Statement::EnterCompulsory
        | Statement::NoLandingOnOwn
        | Statement::Tries(_)
        | Statement::LeaveStartFirst
        | Statement::Protected(_)
        | Statement::NoPassing(_)
        | Statement::MoveBackWhenBlocked
        | Statement::ExtraRoll(_)
        | Statement::Finish(_)
        | Statement::Win(_)
        | Statement::LandingRules { .. }
        | Statement::CellRule(_) => Some(GameKind::Race),
    }
}

/// Applies a `remove` statement: drops the inherited zone, piece, trigger
/// or end rule, or says there is no such thing.
fn remove(m: &mut Merged, what: &RemoveDecl, span: Span, diags: &mut Vec<Diagnostic>) {
    let (found, kind, name, names): (bool, &'static str, &Name, Vec<String>) = match what {
        RemoveDecl::Zone(name) => {
            let names = m.zones.iter().map(|z| z.name.node.clone()).collect();
            let before = m.zones.len();
            m.zones.retain(|z| z.name.node != name.node);
            (m.zones.len() < before, "zone", name, names)
        }
        RemoveDecl::Piece(name) => {
            let names = m.pieces.iter().map(|p| p.id.node.clone()).collect();
            let before = m.pieces.len();
            m.pieces.retain(|p| p.id.node != name.node);
            (m.pieces.len() < before, "piece", name, names)
        }
        RemoveDecl::Trigger(zone) => {
            let names = m.triggers.iter().map(|t| t.0.name.node.clone()).collect();
            let before = m.triggers.len();
            m.triggers.retain(|t| t.0.name.node != zone.name.node);
            (m.triggers.len() < before, "trigger", &zone.name, names)
        }
        // Dropped where the options are collected.
        RemoveDecl::Option(_) => return,
        RemoveDecl::End(word) => {
            let first = match word.node.as_str() {
                "draw" => "after",
                w => w,
            };
            let names: Vec<String> = m
                .ends
                .iter()
                .map(|e| {
                    let key = e.0.key();
                    key.split(' ').next().unwrap_or_default().to_string()
                })
                .collect();
            let before = m.ends.len();
            m.ends
                .retain(|e| e.0.key().split(' ').next() != Some(first));
            let found = m.ends.len() < before;
            (found, "end rule", word, names)
        }
    };
    if found {
        m.removed.push((kind, name.node.clone(), span));
        return;
    }
    let what = match kind {
        "trigger" => format!("no `on end at {}` to remove", name.node),
        "end rule" => format!("no `end {}` rule to remove", name.node),
        _ => format!("no {kind} `{}` to remove", name.node),
    };
    diags.push(unknown_name(
        Code::NothingToRemove,
        what,
        name,
        "not defined by this file or the files it extends",
        names.iter().map(String::as_str),
        "`remove` drops something an earlier file or statement defined",
    ));
}

/// A diagnostic for a name that names nothing: `name` underlined with
/// `label`, and the closest known name (or how to declare one) as help.
fn unknown_name<'a>(
    code: Code,
    message: String,
    name: &Name,
    label: &str,
    known: impl IntoIterator<Item = &'a str> + Clone,
    declare: &str,
) -> Diagnostic {
    Diagnostic::new(code, message)
        .primary(name.span, label)
        .help(unknown_help(&name.node, known, declare))
}

/// Where each named item stands in its list of `Merged`: the list's name
/// and the item's key (a zone's name, an end rule's condition...).
type Index = HashMap<(&'static str, String), usize>;

/// Replaces the item with the same key, keeping its place, or appends; in
/// constant time, so that a file with many statements merges in linear time.
fn upsert<T>(index: &mut Index, list: &'static str, items: &mut Vec<T>, item: T, key: String) {
    match index
        .get(&(list, key.clone()))
        .and_then(|&i| items.get_mut(i))
    {
        Some(slot) => *slot = item,
        None => {
            index.insert((list, key), items.len());
            items.push(item);
        }
    }
}

/// The index of every named list of `m`.
fn index_of(m: &Merged) -> Index {
    let mut index = Index::new();
    for (i, s) in m.sides.iter().enumerate() {
        index.insert(("side", s.node.id.node.clone()), i);
    }
    for (i, d) in m.directions.iter().enumerate() {
        index.insert(("directions", d.0.node.clone()), i);
    }
    for (i, z) in m.zones.iter().enumerate() {
        index.insert(("zone", z.name.node.clone()), i);
    }
    for (i, p) in m.pieces.iter().enumerate() {
        index.insert(("piece", p.id.node.clone()), i);
    }
    for (i, t) in m.triggers.iter().enumerate() {
        index.insert(("trigger", t.0.name.node.clone()), i);
    }
    for (i, e) in m.ends.iter().enumerate() {
        index.insert(("end", e.0.key()), i);
    }
    for (i, h) in m.hands.iter().enumerate() {
        let key = h.0.as_ref().map_or_else(String::new, |n| n.node.clone());
        index.insert(("hand", key), i);
    }
    index
}

/// What a statement defines, for finding duplicates in one file: a key, how
/// to name it, and the span to point at.
pub fn key(statement: &Spanned<Statement>) -> Option<(String, String, Span)> {
    let span = statement.span;
    let simple = |k: &str, what: &str| Some((k.to_string(), what.to_string(), span));
    match &statement.node {
        Statement::Extends(_)
        | Statement::Setup(_)
        | Statement::Opening(_)
        | Statement::When { .. }
        | Statement::CellRule(_)
        | Statement::Remove(_)
        | Statement::RollRule(_)
        | Statement::Score(_)
        | Statement::MoveBySum => None,
        Statement::Track(_) | Statement::Circuit(_) => simple("track", "the `track`"),
        Statement::Safe(_) => simple("safe", "`safe cells`"),
        Statement::Throw { .. } => simple("dice", "`dice` / `throw`"),
        Statement::Layout(_) => simple("layout", "the `layout`"),
        Statement::Path(p) => named("path", &p.seat),
        Statement::RaceSetup(p) => named("setup", &p.seat),
        Statement::Outcome(_) => simple("outcome", "the `outcome`"),
        Statement::FinishingOrder => simple("finishing", "`finishing order`"),
        Statement::Players { .. } => simple("players", "`players`"),
        Statement::Seats(_) => simple("seats", "`seats`"),
        Statement::Pieces(_) => simple("pieces", "`pieces`"),
        Statement::Dice { .. } => simple("dice", "`dice`"),
        Statement::MoveCompulsory(_) => simple("move", "`move compulsory` / `move optional`"),
        Statement::Enter { .. } => simple("enter", "`enter`"),
        Statement::EnterCompulsory => simple("enter compulsory", "`enter compulsory`"),
        Statement::NoLandingOnOwn => simple("no landing", "`no landing on own pieces`"),
        Statement::Tries(_) => simple("tries", "`tries`"),
        Statement::LeaveStartFirst => simple("leave start", "`leave start first`"),
        Statement::Protected(_) => simple("protected", "`protected in rows`"),
        Statement::NoPassing(NoPassingDecl::Rows(_)) => {
            simple("no passing rows", "`no passing rows`")
        }
        Statement::NoPassing(NoPassingDecl::Cells { .. }) => {
            simple("no passing cells", "`no passing cells`")
        }
        Statement::NoPassing(NoPassingDecl::Stack(_)) => {
            simple("no passing on a cell", "`no passing ... on a cell`")
        }
        Statement::MoveBackWhenBlocked => simple("move back", "`move back when blocked`"),
        Statement::ExtraRoll(_) => simple("extra", "`extra roll`"),
        Statement::Finish(_) | Statement::FinishFurthest => simple("finish", "`finish`"),
        Statement::MoveEachDie => simple("move each", "`move each die`"),
        Statement::MoveDoubles(_) => simple("move doubles", "`move doubles`"),
        Statement::MoveMostDice => simple("move most", "`move most dice`"),
        Statement::NoLandingOnStack(_) => {
            simple("no landing stack", "`no landing on N or more pieces`")
        }
        Statement::Bonus {
            after: BonusAfter::Capture,
            ..
        } => simple("bonus capture", "`bonus N after capture`"),
        Statement::Bonus {
            after: BonusAfter::Home,
            ..
        } => simple("bonus home", "`bonus N after home`"),
        Statement::NoLandingOnPoint(_) => simple(
            "no landing point",
            "`no landing on N or more opponent pieces`",
        ),
        Statement::EnterFirst => simple("enter first", "`enter first`"),
        Statement::BearOff(_) => simple("bear off", "`bear off`"),
        Statement::Win(_) => simple("win", "`win`"),
        Statement::LandingRules { .. } => simple("landing rules", "`landing rules`"),
        Statement::Game(_) => simple("game", "the `game` title"),
        Statement::Description(_) => simple("description", "the `description`"),
        Statement::Board { .. } => simple("board", "the `board`"),
        Statement::Playable(_) => simple("playable", "`playable`"),
        Statement::Holes(_) => simple("holes", "`holes`"),
        Statement::Lines(..) => simple("lines", "`lines`"),
        Statement::Neighbours(_) => simple("neighbours", "`capture neighbours`"),
        Statement::CaptureEdge(_) => simple("edge", "`capture edge`"),
        Statement::Notation(_) => simple("notation", "`notation`"),
        Statement::Pdn(_) => simple("pdn", "`pdn gametype`"),
        Statement::First(_) => simple("first", "`first`"),
        Statement::Hand { side, .. } => match side {
            Some(n) => named("hand", n),
            None => simple("hand", "`hand`"),
        },
        Statement::CaptureCompulsory(_) => {
            simple("compulsory", "`capture compulsory` / `capture optional`")
        }
        Statement::CaptureMost(_) | Statement::CapturePrecedence(_) => simple(
            "most",
            "`capture most` / `capture free` / `capture precedence`",
        ),
        Statement::Custodian { .. } => simple("custodian", "`capture custodian`"),
        Statement::CaptureEffect(_) => simple("effect", "`capture removes` / `capture converts`"),
        Statement::Chain(_) => simple("chain", "`chain`"),
        Statement::Crown(_) => simple("crown", "`crown mid-chain`"),
        Statement::LongLanding(_) => simple("long-landing", "`long-landing`"),
        Statement::End(rule) => match rule {
            EndRule::Rule { condition, .. } => {
                let k = condition.key();
                Some((format!("end {k}"), format!("`end {k}`"), span))
            }
            EndRule::Loser(_) => simple("end loser", "`end loser`"),
        },
        Statement::Side(s) => named("side", &s.id),
        Statement::Directions { name, .. } => named("directions", name),
        Statement::Zone(z) => named("zone", &z.name),
        Statement::Piece(p) => named("piece", &p.id),
        Statement::Option { name, .. } => named("option", name),
        Statement::On { zone, .. } => Some((
            format!("on {}", zone.name.node),
            format!("the trigger on zone `{}`", zone.name.node),
            span,
        )),
    }
}

fn named(what: &str, name: &Name) -> Option<(String, String, Span)> {
    Some((
        format!("{what} {}", name.node),
        format!("{what} `{}`", name.node),
        name.span,
    ))
}

/// `X is defined twice`, pointing at both.
pub fn duplicate(what: &str, second: Span, first: Span) -> Diagnostic {
    Diagnostic::new(Code::Duplicate, format!("{what} is defined twice"))
        .primary(second, "defined again here")
        .secondary(first, "first defined here")
        .help("remove one of them; to change a definition for a variant, use `extends` or `when`")
}
