//! pest pairs -> syntax tree, one `lower_<rule>` per grammar rule. The
//! grammar guarantees the shape of the pairs; a function that finds a shape
//! it does not expect returns `None` (a bug in the grammar, reported as such).

use super::parser::Rule;
use crate::ast::*;
use crate::source::{FileId, Span};
use crate::vocab::board::{LongLanding, MidChainCrown, Notation, PlaceRule, Playable, Whose};
use crate::vocab::limit;
use crate::vocab::race::{Finish, Moment, Outcome, Target, Win};
use crate::vocab::{Elimination, Verdict};
use pest::iterators::{Pair, Pairs};

/// Lowers pairs of one file, whose text starts at byte `offset`.
pub struct Lower {
    /// The file.
    pub file: FileId,
    /// Where the parsed text starts in the file.
    pub offset: usize,
}

type P<'i> = Pair<'i, Rule>;

impl Lower {
    fn span(&self, pair: &P<'_>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, self.offset + s.start(), self.offset + s.end())
    }

    /// The span of a pair without the spaces and comments that pest
    /// counts in after an optional or repeated part at its end: from its
    /// start to the end of its last token.
    fn tight(&self, pair: &P<'_>) -> Span {
        let s = pair.as_span();
        let end = pair
            .clone()
            .into_inner()
            .flatten()
            .filter(|p| p.clone().into_inner().next().is_none())
            .map(|p| p.as_span().end())
            .max()
            .unwrap_or(s.end());
        Span::new(self.file, self.offset + s.start(), self.offset + end)
    }

    fn spanned<T>(&self, node: T, pair: &P<'_>) -> Spanned<T> {
        Spanned::new(node, self.span(pair))
    }

    /// `file = { SOI ~ statement* ~ EOI }`
    pub fn lower_file(&self, pair: P<'_>) -> Option<File> {
        let mut statements = Vec::new();
        for p in pair.into_inner() {
            if p.as_rule() != Rule::EOI {
                statements.push(self.lower_statement(p)?);
            }
        }
        Some(File {
            file: self.file,
            statements,
        })
    }

    /// Any statement.
    fn lower_statement(&self, pair: P<'_>) -> Option<Spanned<Statement>> {
        let span = self.tight(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let keyword = inner.next()?;
        let statement = match rule {
            Rule::extends_stmt => Statement::Extends(self.lower_string(inner.next()?)?),
            Rule::game_stmt => Statement::Game(self.lower_string(inner.next()?)?),
            Rule::description_stmt => Statement::Description(self.lower_string(inner.next()?)?),
            Rule::board_stmt => self.lower_board_stmt(inner)?,
            Rule::playable_stmt => Statement::Playable(match inner.next()?.as_rule() {
                Rule::kw_dark => Playable::Dark,
                Rule::kw_light => Playable::Light,
                _ => Playable::All,
            }),
            Rule::holes_stmt => Statement::Holes(self.lower_square_list(inner.next()?)),
            Rule::lines_stmt => {
                let dirs = self.lower_dir_list(inner.next()?)?;
                let _only = inner.next()?;
                let _from = inner.next()?;
                let set = inner.next()?;
                let set_span = self.tight(&set);
                let squares = match set.as_rule() {
                    Rule::kw_dark => LineSquares::Dark,
                    Rule::kw_light => LineSquares::Light,
                    _ => LineSquares::Squares(self.lower_square_list(set)),
                };
                Statement::Lines(dirs, Spanned::new(squares, set_span))
            }
            Rule::opening_stmt => {
                let _remove = inner.next()?;
                let _own = inner.next()?;
                let from = inner.next()?;
                let rule = from.as_rule();
                let mut parts = from.into_inner();
                let _word = parts.next()?;
                match rule {
                    Rule::opening_on => Statement::Opening(OpeningFrom::Squares(
                        self.lower_square_list(parts.next()?),
                    )),
                    _ => {
                        let _empty = parts.next()?;
                        Statement::Opening(OpeningFrom::NextToEmpty(
                            self.lower_dir_list(parts.next()?)?,
                        ))
                    }
                }
            }
            Rule::notation_stmt => Statement::Notation(match inner.next()?.as_rule() {
                Rule::kw_numeric => Notation::Numeric,
                _ => Notation::Algebraic,
            }),
            Rule::pdn_stmt => {
                let _gametype = inner.next()?;
                Statement::Pdn(self.lower_number(inner.next()?))
            }
            Rule::side_stmt => Statement::Side(self.lower_side_stmt(inner)?),
            Rule::first_stmt => Statement::First(self.lower_name(inner.next()?)),
            Rule::directions_stmt => {
                let name = self.lower_name(inner.next()?);
                let _equals = inner.next()?;
                let dirs = self.lower_dir_list(inner.next()?)?;
                Statement::Directions { name, dirs }
            }
            Rule::zone_stmt => Statement::Zone(self.lower_zone_stmt(inner)?),
            Rule::piece_stmt => Statement::Piece(self.lower_piece_stmt(inner)?),
            Rule::setup_stmt => Statement::Setup(self.lower_setup_stmt(inner)?),
            Rule::hand_stmt => {
                let mut side = None;
                let mut count = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::name => side = Some(self.lower_name(p)),
                        Rule::number => count = Some(self.lower_number(p)),
                        _ => {}
                    }
                }
                Statement::Hand { side, count }
            }
            Rule::capture_stmt => self.lower_capture_setting(inner.next()?)?,
            Rule::chain_stmt => Statement::Chain(inner.next()?.as_rule() == Rule::kw_must_continue),
            Rule::crown_stmt => {
                let _mid_chain = inner.next()?;
                Statement::Crown(match inner.next()?.as_rule() {
                    Rule::kw_continue => MidChainCrown::Continue,
                    Rule::kw_stop => MidChainCrown::Stop,
                    _ => MidChainCrown::Stay,
                })
            }
            Rule::long_landing_stmt => Statement::LongLanding(match inner.next()?.as_rule() {
                Rule::kw_must_continue => LongLanding::MustContinue,
                _ => LongLanding::Any,
            }),
            Rule::on_stmt => self.lower_on_stmt(inner)?,
            Rule::end_stmt => Statement::End(self.lower_end_rule(inner.next()?)?),
            Rule::option_stmt => {
                let name = self.lower_name(inner.next()?);
                let _equals = inner.next()?;
                let values = inner.map(|p| self.lower_name(p)).collect();
                Statement::Option { name, values }
            }
            Rule::when_stmt => self.lower_when_stmt(inner)?,
            Rule::remove_option_stmt => {
                let name = inner.next()?.into_inner().nth(1)?;
                Statement::Remove(RemoveDecl::Option(self.lower_name(name)))
            }
            Rule::track_stmt => {
                let cells = self.lower_number(inner.next()?);
                match inner.next() {
                    None => Statement::Track(cells),
                    Some(circuit) => {
                        let kept = circuit
                            .clone()
                            .into_inner()
                            .find(|n| n.as_rule() == Rule::kw_kept)
                            .map(|n| self.span(&n));
                        let numbers: Vec<Spanned<u32>> = circuit
                            .into_inner()
                            .filter(|n| n.as_rule() == Rule::number)
                            .map(|n| self.lower_number(n))
                            .collect();
                        let (home, starts) = numbers.split_last()?;
                        Statement::Circuit(CircuitDecl {
                            cells,
                            starts: starts.to_vec(),
                            home: *home,
                            kept,
                        })
                    }
                }
            }
            Rule::safe_stmt => {
                let mut decl = SafeDecl {
                    numbers: Vec::new(),
                    names: Vec::new(),
                    closed: None,
                };
                for item in inner {
                    match item.as_rule() {
                        Rule::kw_closed => decl.closed = Some(self.span(&item)),
                        Rule::cell_item => {
                            let mut parts = item.into_inner();
                            let Some(first) = parts.next() else { continue };
                            if first.as_rule() == Rule::cell_range {
                                decl.names.push(self.lower_name(first));
                                continue;
                            }
                            let from = self.lower_number(first);
                            let to = parts
                                .find(|n| n.as_rule() == Rule::number)
                                .map(|n| self.lower_number(n));
                            decl.numbers.push((from, to));
                        }
                        _ => {}
                    }
                }
                Statement::Safe(decl)
            }
            Rule::path_stmt => {
                let seat = self.lower_name(inner.next()?);
                let cells = inner
                    .filter(|n| n.as_rule() == Rule::cell_range)
                    .map(|n| self.lower_name(n))
                    .collect();
                Statement::Path(PathDecl { seat, cells })
            }
            Rule::race_setup_stmt => {
                let seat = self.lower_name(inner.next()?);
                let mut counts = Vec::new();
                for pair in inner.filter(|p| p.as_rule() == Rule::setup_count) {
                    let mut parts = pair.into_inner();
                    let count = self.lower_number(parts.next()?);
                    let cell =
                        parts.find(|p| matches!(p.as_rule(), Rule::cell_range | Rule::number))?;
                    let cell = if cell.as_rule() == Rule::cell_range {
                        SetupCell::Named(self.lower_name(cell))
                    } else {
                        SetupCell::Number(self.lower_number(cell))
                    };
                    counts.push((count, cell));
                }
                Statement::RaceSetup(RaceSetupDecl { seat, counts, span })
            }
            Rule::layout_stmt => {
                let shape = inner.next()?;
                Statement::Layout(match shape.as_rule() {
                    Rule::layout_serpentine => {
                        LayoutDecl::Serpentine(self.lower_number(
                            shape.into_inner().find(|n| n.as_rule() == Rule::number)?,
                        ))
                    }
                    Rule::kw_spiral => LayoutDecl::Spiral,
                    Rule::kw_cross => LayoutDecl::Cross,
                    Rule::kw_lanes => LayoutDecl::Lanes,
                    Rule::kw_tables => LayoutDecl::Tables,
                    _ => LayoutDecl::Rows,
                })
            }
            Rule::throw_stmt => {
                let sticks = self.lower_number(inner.next()?);
                let values = self.lower_values(inner)?;
                Statement::Throw { sticks, values }
            }
            Rule::outcome_stmt => {
                let which = inner.next()?;
                let verb = inner.next()?;
                let span = self.span(&which).to(self.span(&verb));
                let first = which.as_rule() == Rule::kw_first_home;
                let win = verb.as_rule() == Rule::kw_win;
                Statement::Outcome(Spanned::new(
                    match (first, win) {
                        (true, true) => Outcome::FirstHomeWins,
                        (true, false) => Outcome::FirstHomeLoses,
                        (false, true) => Outcome::LastHomeWins,
                        (false, false) => Outcome::LastHomeLoses,
                    },
                    span,
                ))
            }
            Rule::finishing_stmt => Statement::FinishingOrder,
            Rule::roll_rule_stmt => Statement::RollRule(self.lower_roll_rule(inner)?),
            Rule::score_stmt => Statement::Score(self.lower_score(inner)?),
            Rule::players_stmt => {
                let min = self.lower_number(inner.next()?);
                let max = match inner.nth(1) {
                    Some(p) => self.lower_number(p),
                    None => min,
                };
                Statement::Players { min, max }
            }
            Rule::seats_stmt => Statement::Seats(inner.map(|p| self.lower_name(p)).collect()),
            Rule::pieces_stmt => Statement::Pieces(self.lower_number(inner.next()?)),
            Rule::dice_stmt => {
                let count = self.lower_number(inner.next()?);
                let die = inner.next()?;
                let faces = Spanned::new(
                    parse_u32(die.as_str().get(1..).unwrap_or("")),
                    self.span(&die),
                );
                let values = self.lower_values(inner)?;
                Statement::Dice {
                    count,
                    faces,
                    values,
                }
            }
            Rule::move_stmt => {
                let p = inner.next()?;
                match p.as_rule() {
                    Rule::move_by_sum => Statement::MoveBySum,
                    Rule::move_back => Statement::MoveBackWhenBlocked,
                    Rule::move_each => Statement::MoveEachDie,
                    Rule::move_most => Statement::MoveMostDice,
                    Rule::move_doubles => Statement::MoveDoubles(
                        self.lower_number(p.into_inner().find(|q| q.as_rule() == Rule::number)?),
                    ),
                    Rule::kw_optional => Statement::MoveCompulsory(false),
                    _ => Statement::MoveCompulsory(true),
                }
            }
            Rule::bear_off_stmt => {
                Statement::BearOff(self.lower_number(inner.find(|q| q.as_rule() == Rule::number)?))
            }
            Rule::no_landing_stmt => {
                let parts: Vec<_> = inner.collect();
                let opponent = parts.iter().any(|q| q.as_rule() == Rule::kw_opponent);
                match parts.into_iter().find(|q| q.as_rule() == Rule::number) {
                    Some(n) if opponent => Statement::NoLandingOnPoint(self.lower_number(n)),
                    Some(n) => Statement::NoLandingOnStack(self.lower_number(n)),
                    None => Statement::NoLandingOnOwn,
                }
            }
            Rule::bonus_stmt => {
                let parts: Vec<_> = inner.collect();
                let count = parts.iter().find(|q| q.as_rule() == Rule::number)?;
                let after = if parts.iter().any(|q| q.as_rule() == Rule::kw_capture) {
                    BonusAfter::Capture
                } else {
                    BonusAfter::Home
                };
                Statement::Bonus {
                    count: self.lower_number(count.clone()),
                    after,
                }
            }
            Rule::protect_stmt => Statement::Protected(
                self.lower_number(inner.find(|p| p.as_rule() == Rule::number)?),
            ),
            Rule::no_passing_stmt => Statement::NoPassing(self.lower_no_passing(inner)?),
            Rule::leave_start_stmt => Statement::LeaveStartFirst,
            Rule::tries_stmt => Statement::Tries(self.lower_number(inner.next()?)),
            Rule::enter_stmt => {
                let p = inner.next()?;
                if p.as_rule() == Rule::kw_compulsory {
                    return Some(Spanned::new(Statement::EnterCompulsory, span));
                }
                if p.as_rule() == Rule::kw_first {
                    return Some(Spanned::new(Statement::EnterFirst, span));
                }
                let mut sum = None;
                let when = match p.as_rule() {
                    Rule::enter_on => {
                        let mut parts = p.into_inner();
                        let face = self.lower_number(parts.nth(1)?);
                        if let Some(s) = parts.find(|q| q.as_rule() == Rule::enter_sum) {
                            let n = s.into_inner().find(|q| q.as_rule() == Rule::number)?;
                            sum = Some(self.lower_number(n));
                        }
                        EnterDecl::OnFace(face)
                    }
                    _ => EnterDecl::Always,
                };
                Statement::Enter {
                    when,
                    at_start: inner.next().is_some(),
                    sum,
                }
            }
            Rule::extra_stmt => {
                let _roll = inner.next()?;
                let p = inner.next()?;
                Statement::ExtraRoll(match p.as_rule() {
                    Rule::extra_on => {
                        let all = p.clone();
                        let what = p.into_inner().nth(1)?;
                        match what.as_rule() {
                            Rule::kw_doubles => ExtraDecl::Doubles(self.span(&what)),
                            _ => {
                                let mut values: Vec<Spanned<u32>> = all
                                    .into_inner()
                                    .filter(|n| n.as_rule() == Rule::number)
                                    .map(|n| self.lower_number(n))
                                    .collect();
                                match values.len() {
                                    1 => ExtraDecl::OnFace(values.pop()?),
                                    _ => ExtraDecl::OnValues(values),
                                }
                            }
                        }
                    }
                    _ => ExtraDecl::Never,
                })
            }
            Rule::finish_stmt => {
                let p = inner.next()?;
                if p.clone()
                    .into_inner()
                    .any(|q| q.as_rule() == Rule::finish_furthest)
                {
                    return Some(Spanned::new(Statement::FinishFurthest, span));
                }
                Statement::Finish(match p.as_rule() {
                    Rule::kw_past => Finish::Past,
                    _ if p.into_inner().any(|q| q.as_rule() == Rule::kw_bounce) => Finish::Bounce,
                    _ => Finish::Exact,
                })
            }
            Rule::win_stmt => Statement::Win(match inner.next()?.as_rule() {
                Rule::win_all => Win::AllPieces,
                _ => Win::FirstPiece,
            }),
            Rule::landing_rules_stmt => {
                let _rules = inner.next()?;
                Statement::LandingRules {
                    chain: inner.next()?.as_rule() == Rule::kw_chain,
                }
            }
            Rule::cell_rule_stmt => Statement::CellRule(self.lower_cell_rule(keyword, inner)?),
            Rule::remove_stmt => self.lower_remove(inner.next()?)?,
            _ => return None,
        };
        Some(Spanned::new(statement, span))
    }

    /// `cell_rule_stmt = { (kw_landing | kw_resting) ~ kw_on ~ test ~ string? ~ colon ~ cell_effect ~ (comma ~ cell_effect)* }`
    fn lower_cell_rule(&self, keyword: P<'_>, inner: Pairs<'_, Rule>) -> Option<CellRuleDecl> {
        let moment = match keyword.as_rule() {
            Rule::kw_resting => Moment::Resting,
            _ => Moment::Landing,
        };
        let mut tests = Vec::new();
        let mut name = None;
        let mut effects = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::kw_on | Rule::colon | Rule::comma => {}
                Rule::test => {
                    for term in p.into_inner().filter(|t| t.as_rule() == Rule::test_term) {
                        tests.push(self.lower_test_term(term)?);
                    }
                }
                Rule::string => name = Some(self.lower_string(p)?),
                _ => effects.push(self.lower_cell_effect(p)?),
            }
        }
        Some(CellRuleDecl {
            moment,
            tests,
            name,
            effects,
        })
    }

    /// `roll_rule_stmt = { kw_rolling ~ roll_condition ~ string? ~ colon ~ cell_effect ~ (comma ~ cell_effect)* }`
    fn lower_roll_rule(&self, inner: Pairs<'_, Rule>) -> Option<RollRuleDecl> {
        let mut condition = None;
        let mut condition_span = Span::default();
        let mut name = None;
        let mut effects = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::colon | Rule::comma => {}
                Rule::roll_condition => {
                    condition_span = self.tight(&p);
                    let parts: Vec<P<'_>> = p.into_inner().collect();
                    condition = Some(match parts.first().map(|f| f.as_rule()) {
                        Some(Rule::doubles_run) => RollConditionDecl::DoublesInARow(
                            self.lower_number(parts.first()?.clone().into_inner().next()?),
                        ),
                        Some(Rule::faces_run) => {
                            let mut numbers: Vec<Spanned<u32>> = parts
                                .first()?
                                .clone()
                                .into_inner()
                                .filter(|n| n.as_rule() == Rule::number)
                                .map(|n| self.lower_number(n))
                                .collect();
                            let times = numbers.pop()?;
                            RollConditionDecl::FacesInARow(numbers, times)
                        }
                        _ => RollConditionDecl::Faces(
                            parts.into_iter().map(|n| self.lower_number(n)).collect(),
                        ),
                    });
                }
                Rule::string => name = Some(self.lower_string(p)?),
                _ => effects.push(self.lower_cell_effect(p)?),
            }
        }
        Some(RollRuleDecl {
            condition: condition?,
            condition_span,
            name,
            effects,
        })
    }

    /// `test_term = { kw_not? ~ test_atom }`
    fn lower_test_term(&self, pair: P<'_>) -> Option<Spanned<TestTerm>> {
        let span = self.tight(&pair);
        let mut negated = false;
        let mut atom = None;
        for p in pair.into_inner() {
            let rule = p.as_rule();
            let mut inner = p.clone().into_inner();
            atom = Some(match rule {
                Rule::kw_not => {
                    negated = true;
                    continue;
                }
                Rule::digit_test => TestAtom::Digit(self.lower_number(inner.nth(1)?)),
                Rule::kw_double => TestAtom::Double,
                Rule::kw_any => TestAtom::Any,
                Rule::kw_entering => TestAtom::Entering,
                Rule::multiple_test => TestAtom::Multiple(self.lower_number(inner.nth(2)?)),
                Rule::roll_test => TestAtom::Roll(
                    inner
                        .filter(|n| n.as_rule() == Rule::number)
                        .map(|n| self.lower_number(n))
                        .collect(),
                ),
                Rule::cells_test => {
                    let items: Vec<P<'_>> =
                        inner.filter(|i| i.as_rule() == Rule::cell_item).collect();
                    let named = items.iter().any(|i| {
                        i.clone()
                            .into_inner()
                            .any(|n| n.as_rule() == Rule::cell_range)
                    });
                    if named {
                        TestAtom::Named(items.into_iter().map(|i| self.lower_name(i)).collect())
                    } else {
                        let mut numbers = Vec::new();
                        for item in items {
                            let mut parts =
                                item.into_inner().filter(|n| n.as_rule() == Rule::number);
                            let from = self.lower_number(parts.next()?);
                            let to = parts.next().map(|n| self.lower_number(n));
                            numbers.push((from, to));
                        }
                        TestAtom::Cells(numbers)
                    }
                }
                _ => return None,
            });
        }
        Some(Spanned::new(
            TestTerm {
                negated,
                atom: atom?,
            },
            span,
        ))
    }

    /// `cell_effect = _{ forward_effect | back_effect | go_effect | kw_out | ... }`
    fn lower_cell_effect(&self, pair: P<'_>) -> Option<Spanned<CellEffectDecl>> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let pair_clone = pair.clone();
        let numbers: Vec<P<'_>> = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::number)
            .collect();
        let number = || numbers.first().map(|n| self.lower_number(n.clone()));
        let effect = match rule {
            Rule::targeted_effect => {
                let mut parts = pair_clone.into_inner();
                let target = parts.next()?;
                let word = target.clone().into_inner().next()?;
                let t = Spanned::new(
                    match word.as_rule() {
                        Rule::kw_others => Target::Others,
                        Rule::kw_opponents => Target::Opponents,
                        Rule::kw_furthest => Target::Furthest,
                        Rule::kw_hindmost => Target::Hindmost,
                        Rule::kw_own_pieces => Target::Own,
                        _ => Target::LastMoved,
                    },
                    self.span(&target),
                );
                let action = parts.next()?;
                let n = action
                    .clone()
                    .into_inner()
                    .find(|p| p.as_rule() == Rule::number)
                    .map(|p| self.lower_number(p));
                let a = match action.as_rule() {
                    Rule::forward_effect => TargetAction::Forward(n?),
                    Rule::back_effect => TargetAction::Back(n?),
                    Rule::go_effect => TargetAction::GoTo(n?),
                    Rule::kw_swap => TargetAction::Swap,
                    _ => TargetAction::Out,
                };
                CellEffectDecl::Targeted(t, a)
            }
            Rule::end_turn_effect => CellEffectDecl::EndTurn,
            Rule::forward_effect => CellEffectDecl::Forward(number()?),
            Rule::back_effect => CellEffectDecl::Back(number()?),
            Rule::go_effect => CellEffectDecl::GoTo(number()?),
            Rule::miss_effect => CellEffectDecl::Miss(number()?),
            Rule::kw_out => CellEffectDecl::Out,
            Rule::no_extra_effect => CellEffectDecl::NoExtraRoll,
            Rule::extra_effect => CellEffectDecl::ExtraRoll,
            Rule::repeat_effect => CellEffectDecl::Repeat,
            Rule::kw_held => CellEffectDecl::Held,
            Rule::kw_bump => CellEffectDecl::Bump,
            Rule::kw_stop => CellEffectDecl::Stop,
            _ => return None,
        };
        Some(Spanned::new(effect, span))
    }

    /// `no_passing_stmt = { kw_no ~ kw_passing ~ (passing_rows | cells_test) }`
    /// `score_stmt = { kw_score ~ (score_left | number ~ score_when?) ~ string? }`
    fn lower_score(&self, inner: Pairs<'_, Rule>) -> Option<ScoreDecl> {
        let mut decl = ScoreDecl {
            points: None,
            points_span: Span::default(),
            tests: Vec::new(),
            name: None,
        };
        for p in inner {
            match p.as_rule() {
                Rule::score_left => decl.points_span = self.span(&p),
                Rule::number => {
                    let n = self.lower_number(p);
                    decl.points_span = n.span;
                    decl.points = Some(n);
                }
                Rule::score_when => {
                    for test in p.into_inner().filter(|q| q.as_rule() == Rule::score_test) {
                        let span = self.span(&test);
                        let what = test.into_inner().find(|q| {
                            matches!(q.as_rule(), Rule::score_none_off | Rule::score_piece)
                        })?;
                        let node = if what.as_rule() == Rule::score_none_off {
                            ScoreTestDecl::NoneOff
                        } else {
                            let mut places = Vec::new();
                            for place in what
                                .into_inner()
                                .filter(|q| q.as_rule() == Rule::score_place)
                            {
                                let at = self.span(&place);
                                let inner = place.into_inner().next()?;
                                let node = if inner.as_rule() == Rule::score_last {
                                    let n =
                                        inner.into_inner().find(|q| q.as_rule() == Rule::number)?;
                                    ScorePlaceDecl::WinnersLast(self.lower_number(n))
                                } else {
                                    ScorePlaceDecl::Out
                                };
                                places.push(Spanned::new(node, at));
                            }
                            ScoreTestDecl::Piece(places)
                        };
                        decl.tests.push(Spanned::new(node, span));
                    }
                }
                Rule::string => decl.name = self.lower_string(p),
                _ => {}
            }
        }
        Some(decl)
    }

    fn lower_no_passing(&self, mut inner: Pairs<'_, Rule>) -> Option<NoPassingDecl> {
        let what = inner.find(|p| {
            matches!(
                p.as_rule(),
                Rule::passing_rows | Rule::passing_stack | Rule::cells_test
            )
        })?;
        if what.as_rule() == Rule::passing_rows {
            let n = what.into_inner().find(|p| p.as_rule() == Rule::number)?;
            return Some(NoPassingDecl::Rows(self.lower_number(n)));
        }
        if what.as_rule() == Rule::passing_stack {
            let n = what.into_inner().find(|p| p.as_rule() == Rule::number)?;
            return Some(NoPassingDecl::Stack(self.lower_number(n)));
        }
        let mut numbers = Vec::new();
        let mut names = Vec::new();
        for item in what.into_inner().filter(|p| p.as_rule() == Rule::cell_item) {
            let mut parts = item.into_inner();
            let Some(first) = parts.next() else { continue };
            if first.as_rule() == Rule::cell_range {
                names.push(self.lower_name(first));
                continue;
            }
            let from = self.lower_number(first);
            let to = parts
                .find(|n| n.as_rule() == Rule::number)
                .map(|n| self.lower_number(n));
            numbers.push((from, to));
        }
        Some(NoPassingDecl::Cells { numbers, names })
    }

    /// `board_stmt = { kw_board ~ number ~ kw_x ~ number }`
    fn lower_board_stmt(&self, mut inner: Pairs<'_, Rule>) -> Option<Statement> {
        let width = self.lower_number(inner.next()?);
        let _x = inner.next()?;
        let height = self.lower_number(inner.next()?);
        Some(Statement::Board { width, height })
    }

    /// `side_stmt = { kw_side ~ name ~ string ~ kw_forward ~ compass ~ letter_clause? }`
    fn lower_side_stmt(&self, mut inner: Pairs<'_, Rule>) -> Option<SideDecl> {
        let id = self.lower_name(inner.next()?);
        let name = self.lower_string(inner.next()?)?;
        let _forward = inner.next()?;
        let forward = self.lower_compass(inner.next()?)?;
        let letter = match inner.next() {
            Some(p) => Some(self.lower_letter_clause(p)?),
            None => None,
        };
        Some(SideDecl {
            id,
            name,
            forward,
            letter,
        })
    }

    /// `compass = { kw_north | kw_south | kw_east | kw_west }`
    fn lower_compass(&self, pair: P<'_>) -> Option<Spanned<(i8, i8)>> {
        let span = self.span(&pair);
        let v = match pair.into_inner().next()?.as_rule() {
            Rule::kw_south => (0, -1),
            Rule::kw_east => (1, 0),
            Rule::kw_west => (-1, 0),
            _ => (0, 1),
        };
        Some(Spanned::new(v, span))
    }

    /// `letter_clause = { kw_letter ~ letter }`
    fn lower_letter_clause(&self, pair: P<'_>) -> Option<Spanned<char>> {
        let letter = pair.into_inner().nth(1)?;
        let c = letter.as_str().chars().next()?;
        Some(self.spanned(c, &letter))
    }

    /// `dir_list = { direction+ }`
    fn lower_dir_list(&self, pair: P<'_>) -> Option<Vec<Spanned<Direction>>> {
        pair.into_inner().map(|p| self.lower_direction(p)).collect()
    }

    /// `direction = _{ vector | dir_name }`
    fn lower_direction(&self, pair: P<'_>) -> Option<Spanned<Direction>> {
        match pair.as_rule() {
            Rule::vector => self.lower_vector(pair),
            _ => Some(self.spanned(Direction::Named(pair.as_str().to_string()), &pair)),
        }
    }

    /// `vector = { open_paren ~ integer ~ comma ~ integer ~ close_paren }`
    fn lower_vector(&self, pair: P<'_>) -> Option<Spanned<Direction>> {
        let span = self.span(&pair);
        let mut ints = pair.into_inner().filter(|p| p.as_rule() == Rule::integer);
        let dx = lower_integer(&ints.next()?);
        let dy = lower_integer(&ints.next()?);
        Some(Spanned::new(Direction::Vector(dx, dy), span))
    }

    /// `zone_stmt = { kw_zone ~ name ~ equals ~ zone_body ~ zone_property* }`
    fn lower_zone_stmt(&self, mut inner: Pairs<'_, Rule>) -> Option<ZoneDecl> {
        let name = self.lower_name(inner.next()?);
        let _equals = inner.next()?;
        let body_pair = inner.next()?;
        let body = match body_pair.as_rule() {
            Rule::rank_pattern => self.lower_rank_pattern(body_pair)?,
            Rule::side_lists => self.lower_side_lists(body_pair)?,
            _ => ZoneBody::Shared(self.lower_square_list(body_pair)),
        };
        let mut no_stop = false;
        let mut hostile = None;
        let mut only = None;
        for p in inner.filter(|p| p.as_rule() == Rule::zone_property) {
            let Some(prop) = p.into_inner().next() else {
                continue;
            };
            match prop.as_rule() {
                Rule::hostile_property => {
                    let span = self.tight(&prop);
                    let when_empty = prop
                        .into_inner()
                        .any(|q| q.as_rule() == Rule::kw_when_empty);
                    hostile = Some(Spanned::new(when_empty, span));
                }
                Rule::only_property => {
                    let mut kinds = Vec::new();
                    let mut closed = false;
                    for q in prop.into_inner() {
                        match q.as_rule() {
                            Rule::name => kinds.push(self.lower_name(q)),
                            Rule::kw_closed => closed = true,
                            _ => {}
                        }
                    }
                    only = Some((kinds, closed));
                }
                _ => no_stop = true,
            }
        }
        Some(ZoneDecl {
            name,
            body,
            no_stop,
            hostile,
            only,
        })
    }

    /// `rank_pattern = { kw_ranks ~ rank_number ~ dash ~ rank_number | kw_rank ~ rank_number }`
    fn lower_rank_pattern(&self, pair: P<'_>) -> Option<ZoneBody> {
        let mut numbers = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::rank_number);
        let from = self.lower_rank_number(numbers.next()?)?;
        let to = match numbers.next() {
            Some(p) => self.lower_rank_number(p)?,
            None => from,
        };
        Some(ZoneBody::Ranks { from, to })
    }

    /// `rank_number = { number | kw_last }`
    fn lower_rank_number(&self, pair: P<'_>) -> Option<Spanned<RankNumber>> {
        let inner = pair.into_inner().next()?;
        let n = match inner.as_rule() {
            Rule::number => RankNumber::Number(parse_u32(inner.as_str())),
            _ => RankNumber::Last,
        };
        Some(self.spanned(n, &inner))
    }

    /// `side_lists = { side_list ~ (comma ~ side_list)* }`
    fn lower_side_lists(&self, pair: P<'_>) -> Option<ZoneBody> {
        let mut lists = Vec::new();
        for p in pair.into_inner().filter(|p| p.as_rule() == Rule::side_list) {
            lists.push(self.lower_side_list(p)?);
        }
        Some(ZoneBody::PerSide(lists))
    }

    /// `side_list = { name ~ colon ~ square_list }`
    fn lower_side_list(&self, pair: P<'_>) -> Option<(Name, Vec<Spanned<SquareRef>>)> {
        let mut inner = pair.into_inner();
        let side = self.lower_name(inner.next()?);
        let _colon = inner.next()?;
        Some((side, self.lower_square_list(inner.next()?)))
    }

    /// `square_list = { square+ }`
    fn lower_square_list(&self, pair: P<'_>) -> Vec<Spanned<SquareRef>> {
        pair.into_inner().map(|p| self.lower_square(&p)).collect()
    }

    /// `square = _{ algebraic_square | numeric_square }`
    fn lower_square(&self, pair: &P<'_>) -> Spanned<SquareRef> {
        let text = pair.as_str();
        let sq = match pair.as_rule() {
            Rule::algebraic_square => {
                let file = text
                    .bytes()
                    .next()
                    .map_or(0, |b| u32::from(b.saturating_sub(b'a')));
                SquareRef::Algebraic {
                    file,
                    rank: parse_u32(text.get(1..).unwrap_or("")),
                }
            }
            _ => SquareRef::Number(parse_u32(text)),
        };
        self.spanned(sq, pair)
    }

    /// `piece_stmt = { kw_piece ~ name ~ string ~ letter_clause? ~ open_brace ~ piece_line* ~ close_brace }`
    fn lower_piece_stmt(&self, mut inner: Pairs<'_, Rule>) -> Option<PieceDecl> {
        let id = self.lower_name(inner.next()?);
        let name = self.lower_string(inner.next()?)?;
        let mut letter = None;
        let mut lines = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::letter_clause => letter = Some(self.lower_letter_clause(p)?),
                Rule::open_brace | Rule::close_brace => {}
                _ => lines.push(self.lower_piece_line(p)?),
            }
        }
        Some(PieceDecl {
            id,
            name,
            letter,
            lines,
        })
    }

    /// `piece_line = _{ step_line | slide_line | jump_line | promote_line | immune_line | value_line }`
    fn lower_piece_line(&self, pair: P<'_>) -> Option<Spanned<PieceLine>> {
        let rule = pair.as_rule();
        // A `place` line (and a `captured` or `unarmed` one) ends at its
        // last word, not at the spaces after it.
        let span = if matches!(
            rule,
            Rule::place_line | Rule::captured_line | Rule::unarmed_line
        ) {
            self.tight(&pair)
        } else {
            self.span(&pair)
        };
        let mut inner = pair.into_inner();
        let _keyword = inner.next()?;
        let line = match rule {
            Rule::step_line | Rule::slide_line => {
                let kind = if rule == Rule::step_line {
                    MoveKind::Step
                } else {
                    MoveKind::Slide
                };
                let dirs = self.lower_dir_list(inner.next()?)?;
                let replacement = match inner.next() {
                    Some(p) => {
                        let r = match p.clone().into_inner().next()?.as_rule() {
                            Rule::kw_captures_only => Replacement::Only,
                            Rule::kw_clone => Replacement::Clone,
                            _ => Replacement::Also,
                        };
                        self.spanned(r, &p)
                    }
                    None => Spanned::new(Replacement::None, span),
                };
                PieceLine::Move(kind, dirs, replacement, Vec::new())
            }
            Rule::hop_line => {
                let dirs = self.lower_dir_list(inner.next()?)?;
                PieceLine::Move(
                    MoveKind::Hop,
                    dirs,
                    Spanned::new(Replacement::None, span),
                    Vec::new(),
                )
            }
            Rule::jump_line => {
                let kind = match inner.next()?.as_rule() {
                    Rule::kw_long => MoveKind::LongJump,
                    _ => MoveKind::ShortJump,
                };
                let dirs = self.lower_dir_list(inner.next()?)?;
                let mut limits = Vec::new();
                for p in inner.by_ref() {
                    let bit = match p.clone().into_inner().next()?.as_rule() {
                        Rule::kw_land_beyond => limit::LAND_BEYOND,
                        Rule::kw_no_reverse => limit::NO_REVERSE,
                        Rule::kw_straight => limit::STRAIGHT,
                        _ => limit::MUST_CONTINUE,
                    };
                    limits.push(self.spanned(bit, &p));
                }
                PieceLine::Move(kind, dirs, Spanned::new(Replacement::None, span), limits)
            }
            Rule::promote_line => {
                let kind = self.lower_name(inner.next()?);
                let _at = inner.next()?;
                PieceLine::Promote(kind, self.lower_zone_ref(inner.next()?)?)
            }
            Rule::immune_line => PieceLine::Immune(
                inner
                    .filter(|p| p.as_rule() == Rule::name)
                    .map(|p| self.lower_name(p))
                    .collect(),
            ),
            Rule::value_line => {
                let p = inner.next()?;
                PieceLine::Value(self.spanned(parse_thousandths(p.as_str()), &p))
            }
            Rule::place_line => match inner.next() {
                Some(p) if p.as_rule() == Rule::place_next => {
                    let mut parts = p.into_inner();
                    let _next_to = parts.next()?;
                    let _own = parts.next()?;
                    PieceLine::Place(PlaceRule::NextToOwn, self.lower_dir_list(parts.next()?)?)
                }
                Some(p) if p.as_rule() == Rule::kw_enclosing => {
                    PieceLine::Place(PlaceRule::Enclosing, Vec::new())
                }
                _ => PieceLine::Place(PlaceRule::Anywhere, Vec::new()),
            },
            Rule::captured_line => {
                let zone = match inner.find(|p| p.as_rule() == Rule::zone_ref) {
                    Some(p) => Some(self.lower_zone_ref(p)?),
                    None => None,
                };
                PieceLine::Surrounded(zone)
            }
            Rule::unarmed_line => PieceLine::Unarmed,
            _ => return None,
        };
        Some(Spanned::new(line, span))
    }

    /// `setup_stmt = { kw_setup ~ name ~ name? ~ kw_at ~ place }`
    fn lower_setup_stmt(&self, inner: Pairs<'_, Rule>) -> Option<SetupDecl> {
        let mut names = Vec::new();
        let mut place = None;
        for p in inner {
            match p.as_rule() {
                Rule::name => names.push(self.lower_name(p)),
                Rule::place => place = Some(self.lower_place(p)?),
                _ => {}
            }
        }
        let kind = names.pop()?;
        Some(SetupDecl {
            side: names.pop(),
            kind,
            place: place?,
        })
    }

    /// `place = { square_list | zone_ref }`
    fn lower_place(&self, pair: P<'_>) -> Option<Place> {
        let inner = pair.into_inner().next()?;
        Some(match inner.as_rule() {
            Rule::square_list => Place::Squares(self.lower_square_list(inner)),
            _ => Place::Zone(self.lower_zone_ref(inner)?),
        })
    }

    /// `zone_ref = { (kw_enemy | kw_any)? ~ name }`
    fn lower_zone_ref(&self, pair: P<'_>) -> Option<ZoneRef> {
        let mut whose = Whose::Own;
        let mut name = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_enemy => whose = Whose::Enemy,
                Rule::kw_any => whose = Whose::Any,
                _ => name = Some(self.lower_name(p)),
            }
        }
        Some(ZoneRef { whose, name: name? })
    }

    /// `capture_setting = _{ precedence | custodian | neighbours | edge | kw_compulsory | ... | kw_stacks }`
    fn lower_capture_setting(&self, pair: P<'_>) -> Option<Statement> {
        Some(match pair.as_rule() {
            Rule::kw_compulsory => Statement::CaptureCompulsory(true),
            Rule::kw_optional => Statement::CaptureCompulsory(false),
            Rule::kw_most => Statement::CaptureMost(true),
            Rule::kw_free => Statement::CaptureMost(false),
            Rule::removes => Statement::CaptureEffect(match pair.into_inner().nth(1)?.as_rule() {
                Rule::kw_at_end => Effect::RemoveAtEnd,
                _ => Effect::RemoveAtOnce,
            }),
            Rule::kw_stacks => Statement::CaptureEffect(Effect::Stack),
            Rule::converts => Statement::CaptureEffect(Effect::Convert(
                self.lower_name(pair.into_inner().nth(2)?),
            )),
            Rule::precedence => {
                let mut criteria = Vec::new();
                for c in pair.into_inner().filter(|p| p.as_rule() == Rule::criterion) {
                    criteria.push(self.lower_criterion(c)?);
                }
                Statement::CapturePrecedence(criteria)
            }
            Rule::neighbours => {
                Statement::Neighbours(self.lower_dir_list(pair.into_inner().nth(1)?)?)
            }
            Rule::edge => {
                Statement::CaptureEdge(pair.into_inner().nth(1)?.as_rule() == Rule::kw_hostile)
            }
            Rule::custodian => {
                let mut dirs = Vec::new();
                let mut multiple = false;
                let mut corners = false;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::dir_list => dirs = self.lower_dir_list(p)?,
                        Rule::kw_multiple => multiple = true,
                        Rule::kw_corners => corners = true,
                        _ => {}
                    }
                }
                Statement::Custodian {
                    dirs,
                    multiple,
                    corners,
                }
            }
            _ => return None,
        })
    }

    /// `criterion = { crit_most_pieces | crit_most_value | crit_most_kind | ... }`
    fn lower_criterion(&self, pair: P<'_>) -> Option<Spanned<CriterionDecl>> {
        let span = self.tight(&pair);
        let inner = pair.into_inner().next()?;
        let rule = inner.as_rule();
        let name = inner
            .into_inner()
            .find(|p| p.as_rule() == Rule::name)
            .map(|p| self.lower_name(p));
        let c = match rule {
            Rule::crit_most_pieces => CriterionDecl::MostPieces,
            Rule::crit_most_value => CriterionDecl::MostValue,
            Rule::crit_most_kind => CriterionDecl::MostOf(name?),
            Rule::crit_fewest_kind => CriterionDecl::FewestOf(name?),
            Rule::crit_by_kind => CriterionDecl::By(name?),
            Rule::crit_earliest_kind => CriterionDecl::EarliestOf(name?),
            _ => return None,
        };
        Some(Spanned::new(c, span))
    }

    /// `remove_stmt = { kw_remove ~ (remove_zone | remove_piece | remove_trigger | remove_end) }`
    fn lower_remove(&self, pair: P<'_>) -> Option<Statement> {
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let _keyword = inner.next()?;
        Some(Statement::Remove(match rule {
            Rule::remove_zone => RemoveDecl::Zone(self.lower_name(inner.next()?)),
            Rule::remove_piece => RemoveDecl::Piece(self.lower_name(inner.next()?)),
            Rule::remove_trigger => {
                let zone = inner.find(|p| p.as_rule() == Rule::zone_ref)?;
                RemoveDecl::Trigger(self.lower_zone_ref(zone)?)
            }
            _ => {
                let word = inner.next()?;
                RemoveDecl::End(self.lower_name(word))
            }
        }))
    }

    /// `on_stmt = { kw_on ~ kw_end ~ kw_at ~ zone_ref ~ kw_convert ~ kw_to ~ name }`
    fn lower_on_stmt(&self, inner: Pairs<'_, Rule>) -> Option<Statement> {
        let mut zone = None;
        let mut kind = None;
        for p in inner {
            match p.as_rule() {
                Rule::zone_ref => zone = Some(self.lower_zone_ref(p)?),
                Rule::name => kind = Some(self.lower_name(p)),
                _ => {}
            }
        }
        Some(Statement::On {
            zone: zone?,
            kind: kind?,
        })
    }

    /// `end_rule = _{ end_no_pieces | end_no_moves | end_repetition | end_draw_after | end_after | end_reach | end_reduced_to | end_loser }`
    fn lower_end_rule(&self, pair: P<'_>) -> Option<EndRule> {
        let rule = pair.as_rule();
        let mut verdict = None;
        let mut number = None;
        let mut events = Vec::new();
        let mut zone = None;
        let mut kind = None;
        let mut loser = None;
        let mut exact = false;
        let mut dirs = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::verdict => {
                    let span = self.span(&p);
                    let v = match p.into_inner().next()?.as_rule() {
                        Rule::kw_win => Verdict::Win,
                        Rule::kw_lose => Verdict::Lose,
                        Rule::kw_pass => Verdict::Pass,
                        _ => Verdict::Draw,
                    };
                    verdict = Some(Spanned::new(v, span));
                }
                Rule::kw_draw if rule == Rule::end_draw_after => {
                    verdict = Some(self.spanned(Verdict::Draw, &p));
                }
                Rule::number => number = Some(self.lower_number(p)),
                Rule::event => events.push(self.lower_event(p)?),
                Rule::zone_ref => zone = Some(self.lower_zone_ref(p)?),
                Rule::name => kind = Some(self.lower_name(p)),
                Rule::kw_drops_out => loser = Some(Elimination::DropOut),
                Rule::kw_ends_game => loser = Some(Elimination::EndsGame),
                Rule::kw_exactly => exact = true,
                Rule::line_dirs => dirs = self.lower_dir_list(p)?,
                _ => {}
            }
        }
        let condition = match rule {
            Rule::end_loser => return Some(EndRule::Loser(loser?)),
            Rule::end_no_pieces => EndCondition::NoPieces,
            Rule::end_no_moves => EndCondition::NoMoves,
            Rule::end_repetition => EndCondition::Repetition(number?),
            Rule::end_draw_after | Rule::end_after => EndCondition::Without {
                plies: number?,
                events,
            },
            Rule::end_reach => EndCondition::Reach { zone: zone?, kind },
            Rule::end_reduced_to => EndCondition::ReducedTo(number?),
            Rule::end_most_pieces => EndCondition::MostPieces,
            Rule::end_line => EndCondition::Line {
                length: number?,
                exact,
                dirs,
            },
            Rule::end_captured => EndCondition::Captured(kind?),
            _ => return None,
        };
        Some(EndRule::Rule {
            condition,
            verdict: verdict?,
        })
    }

    /// `event = { kw_capture | kw_conversion | kw_promotion | kw_move_of ~ name }`
    fn lower_event(&self, pair: P<'_>) -> Option<Spanned<Event>> {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let event = match inner.next()?.as_rule() {
            Rule::kw_capture => Event::Capture,
            Rule::kw_conversion => Event::Conversion,
            Rule::kw_promotion => Event::Promotion,
            _ => Event::MoveOf(self.lower_name(inner.next()?)),
        };
        Some(Spanned::new(event, span))
    }

    /// `when_stmt = { kw_when ~ name ~ equals ~ name ~ open_brace ~ inner_statement* ~ close_brace }`
    fn lower_when_stmt(&self, mut inner: Pairs<'_, Rule>) -> Option<Statement> {
        let option = self.lower_name(inner.next()?);
        let _equals = inner.next()?;
        let value = self.lower_name(inner.next()?);
        let mut body = Vec::new();
        for p in inner {
            if !matches!(p.as_rule(), Rule::open_brace | Rule::close_brace) {
                body.push(self.lower_statement(p)?);
            }
        }
        Some(Statement::When {
            option,
            value,
            body,
        })
    }

    /// `name = @{ !reserved ~ identifier }`
    fn lower_name(&self, pair: P<'_>) -> Name {
        self.spanned(pair.as_str().to_string(), &pair)
    }

    /// `string = ${ quote ~ string_text ~ quote }`
    fn lower_string(&self, pair: P<'_>) -> Option<Spanned<String>> {
        let span = self.span(&pair);
        let text = pair
            .into_inner()
            .find(|p| p.as_rule() == Rule::string_text)
            .map_or(String::new(), |p| p.as_str().to_string());
        Some(Spanned::new(text, span))
    }

    /// The table of values after `throw N sticks:` or `dice N dF:` (`0 =
    /// 5, 1 = 1, ...`), as written: each count or face with its value.
    fn lower_values(&self, inner: Pairs<'_, Rule>) -> Option<Vec<(Spanned<u32>, Spanned<u32>)>> {
        let mut values = Vec::new();
        for pair in inner.filter(|p| p.as_rule() == Rule::throw_value) {
            let mut numbers = pair.into_inner().filter(|n| n.as_rule() == Rule::number);
            let key = self.lower_number(numbers.next()?);
            let value = self.lower_number(numbers.next()?);
            values.push((key, value));
        }
        Some(values)
    }

    /// `number = @{ ASCII_DIGIT+ }`
    fn lower_number(&self, pair: P<'_>) -> Spanned<u32> {
        self.spanned(parse_u32(pair.as_str()), &pair)
    }
}

/// Digits to a number; too many digits saturate (the checker then says the
/// number is out of range).
fn parse_u32(digits: &str) -> u32 {
    digits.parse().unwrap_or(u32::MAX)
}

/// `decimal = @{ ASCII_DIGIT+ ~ ("." ~ ASCII_DIGIT+)? }` in thousandths;
/// too large, or more than three decimals, saturates (the checker says so).
fn parse_thousandths(text: &str) -> u64 {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 {
        return u64::MAX;
    }
    let Ok(whole) = whole.parse::<u64>() else {
        return u64::MAX;
    };
    let frac_value = format!("{frac:0<3}").parse::<u64>().unwrap_or(0);
    whole
        .checked_mul(1000)
        .and_then(|w| w.checked_add(frac_value))
        .unwrap_or(u64::MAX)
}

/// `integer = @{ "-"? ~ ASCII_DIGIT+ }`, saturating.
fn lower_integer(pair: &P<'_>) -> i64 {
    let s = pair.as_str();
    s.parse().unwrap_or(if s.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    })
}
