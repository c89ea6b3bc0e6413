//! The score rules of a race game (`score 2 when the loser has borne off
//! none "a gammon"`, `score pieces left`): checked into
//! `vocab::race::ScoreRule`s, with a diagnostic for each way to get one
//! wrong (a score of 0, a count of cells longer than the path, two rules
//! for the same tests, a test that always holds, a game that doesn't end
//! with one winner and one loser).

use super::merge::Merged;
use crate::ast::Spanned;
use crate::ast::{ScorePlaceDecl, ScoreTestDecl};
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::vocab::race::{Outcome, Points, ScoreRule, ScoreTest, Win};

/// What the score rules are checked against.
pub struct ScoreGame {
    /// The most players the game allows.
    pub max_players: u8,
    /// The cells of a piece's path before the finish (the path's length).
    pub path_cells: Option<u16>,
    /// Pieces per player.
    pub pieces: u8,
}

/// The score rules of `merged`, checked; empty when there are none (or on
/// an error, which is in `diags`).
pub fn check_scores(
    merged: &Merged,
    game: &ScoreGame,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ScoreRule> {
    let Some(first) = merged.scores.first() else {
        return Vec::new();
    };
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    if game.max_players != 2 {
        let mut d = Diagnostic::new(
            Code::PlayerCount,
            format!(
                "score rules need a game of two players, and this one allows {}",
                game.max_players
            ),
        )
        .primary(first.span, "a score counted against the one loser");
        if let Some((_, max)) = merged.players {
            d = d.secondary(max.span, "the most players");
        }
        diags.push(d.help("a score is counted by how far the loser got: say `players 2`, or remove the score rules"));
    }
    let plays_on = merged.order
        || merged
            .outcome
            .is_some_and(|o| o.node != Outcome::FirstHomeWins);
    if plays_on {
        let mut d = Diagnostic::new(
            Code::OutcomeNotAllowed,
            "score rules need a game that ends when the first player is home",
        )
        .primary(first.span, "a score counted when the winner gets home");
        if let Some(o) = merged.outcome.filter(|o| o.node != Outcome::FirstHomeWins) {
            d = d.secondary(o.span, "the game plays on past the first home");
        }
        diags.push(d.help("the winner is the first home and the loser is where the game left them: remove `finishing order` and any `outcome` other than `outcome first-home win`"));
    }
    // Pieces finish before the end only when a win needs more than one.
    let one_piece_wins =
        game.pieces <= 1 || merged.win.unwrap_or(Win::FirstPiece) == Win::FirstPiece;
    let mut rules = Vec::new();
    let mut seen: Vec<(Vec<ScoreTest>, Span)> = Vec::new();
    for rule in &merged.scores {
        let decl = &rule.node;
        let points = match decl.points {
            Some(n) if n.node == 0 => {
                diags.push(
                    Diagnostic::new(Code::CountRange, "a score of 0 points")
                        .primary(n.span, "at least 1")
                        .help("a win is worth at least 1 point, such as `score 2 when the loser has borne off none`"),
                );
                continue;
            }
            Some(n) => Points::Fixed(n.node),
            None => Points::PiecesLeft,
        };
        let mut tests = Vec::new();
        for test in &decl.tests {
            if let Some(t) = check_test(test, game, one_piece_wins, diags) {
                if tests.contains(&t) {
                    diags.push(
                        Diagnostic::new(Code::Duplicate, "this test is given twice")
                            .primary(test.span, "given again here")
                            .help("give each test of a score rule once"),
                    );
                    continue;
                }
                tests.push(t);
            }
        }
        let mut key = tests.clone();
        key.sort();
        if let Some((_, earlier)) = seen.iter().find(|(k, _)| *k == key) {
            let what = if key.is_empty() {
                "the plain score is given twice"
            } else {
                "two score rules for the same tests"
            };
            diags.push(
                Diagnostic::new(Code::Duplicate, what)
                    .primary(rule.span, "given again here")
                    .secondary(*earlier, "first given here")
                    .help(if key.is_empty() {
                        "give one plain score (`score 1` or `score pieces left`), and the larger ones with `when the loser ...`"
                    } else {
                        "each set of tests gives one score: remove one of the rules"
                    }),
            );
            continue;
        }
        seen.push((key, rule.span));
        rules.push(ScoreRule {
            points,
            tests,
            label: decl
                .name
                .as_ref()
                .map_or_else(String::new, |n| n.node.clone()),
        });
    }
    if diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return Vec::new();
    }
    rules
}

/// One test, checked.
fn check_test(
    test: &Spanned<ScoreTestDecl>,
    game: &ScoreGame,
    one_piece_wins: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<ScoreTest> {
    match &test.node {
        ScoreTestDecl::NoneOff => {
            if one_piece_wins {
                diags.push(
                    Diagnostic::new(
                        Code::EffectMisplaced,
                        "`has borne off none` always holds: the game ends when the first piece finishes",
                    )
                    .primary(test.span, "the loser never has a piece off")
                    .help("the loser can have pieces off only when a win needs all of them home: say `win all pieces` (with more than one piece per player), or remove this test"),
                );
                return None;
            }
            Some(ScoreTest::NoneOff)
        }
        ScoreTestDecl::Piece(places) => {
            let mut out = false;
            let mut winners_last = 0;
            let mut ok = true;
            for place in places {
                match place.node {
                    ScorePlaceDecl::Out if out => {
                        diags.push(
                            Diagnostic::new(Code::Duplicate, "`out` is given twice")
                                .primary(place.span, "given again here")
                                .help("name each place once"),
                        );
                        ok = false;
                    }
                    ScorePlaceDecl::Out => out = true,
                    ScorePlaceDecl::WinnersLast(n) if winners_last > 0 => {
                        diags.push(
                            Diagnostic::new(
                                Code::Duplicate,
                                "`in the winner's last` is given twice",
                            )
                            .primary(n.span, "given again here")
                            .help("name one count of the winner's last cells"),
                        );
                        ok = false;
                    }
                    ScorePlaceDecl::WinnersLast(n) => {
                        let most = game.path_cells.unwrap_or(0);
                        if n.node == 0 || n.node > u32::from(most) {
                            let d = if n.node == 0 {
                                Diagnostic::new(Code::CountRange, "the winner's last 0 cells")
                                    .primary(n.span, "no cell")
                            } else {
                                Diagnostic::new(
                                    Code::CellNumber,
                                    format!(
                                        "the winner's last {} cells: a path has only {most}",
                                        n.node
                                    ),
                                )
                                .primary(n.span, format!("more than the {most} cells of a path"))
                            };
                            diags.push(d.help(format!(
                                "count from 1 to the {most} cells of the winner's path, such as `in the winner's last 6`"
                            )));
                            ok = false;
                        } else {
                            winners_last = n.node as u16;
                        }
                    }
                }
            }
            ok.then_some(ScoreTest::Piece { out, winners_last })
        }
    }
}
