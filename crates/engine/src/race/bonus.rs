//! Which moves of a turn of dice used one by one are bonus moves (`bonus
//! N after capture`, `bonus N after home`), so that the turn's events say
//! them as bonuses: a choice lists its steps, not the die or bonus each
//! one used, so the steps are matched again with the dice rolled and the
//! bonuses earned on the way (a die before a bonus of the same distance).
//! Only a turn that may have used a bonus is matched: in a game with bonus
//! rules, a turn with a step after its first as long as a bonus (or any
//! step after the first, where a move past the finish is cut short).

use super::dice::BONUS;
use super::RaceState;
use crate::race::event::Bonus;
use crate::race::game::{Finish, RaceGame, OUT};
use crate::race::{Event, Roll, Step, Steps, MAX_STEPS};

/// A die the turn still has to use, or a bonus it earned.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Move {
    /// How far it moves a piece.
    by: u8,
    /// What earned it, for a bonus.
    bonus: Option<Bonus>,
}

impl RaceState {
    /// Marks the moves of `events` (a step's events, played from here)
    /// as the bonus `bonus`.
    pub(super) fn mark_bonus(events: &mut [Event], bonus: Bonus) {
        for e in events {
            if let Event::Move { bonus: b, .. } = e {
                *b = Some(bonus);
                return;
            }
        }
    }

    /// Whether a turn of `steps` may have used a bonus: only a step after
    /// the first, in a game with bonus rules, as long as a bonus (or of any
    /// length where a move past the finish is cut short to it). Looks at
    /// nothing else, so that the turns without bonuses cost nothing.
    pub(super) fn may_use_bonus(game: &RaceGame, steps: Steps) -> bool {
        if game.bonus_capture == 0 && game.bonus_home == 0 {
            return false;
        }
        let cut = game.finish == Finish::Past || game.finish_furthest;
        steps.iter().skip(1).any(|Step { by, .. }| {
            cut || by == u16::from(game.bonus_capture) || by == u16::from(game.bonus_home)
        })
    }

    /// For each step of `steps`, played in order from here with `roll`'s
    /// `dice`, the bonus it uses (`None`: a die); all `None` when the
    /// steps don't fit the dice.
    pub(super) fn bonus_moves(
        &self,
        game: &RaceGame,
        roll: &Roll,
        dice: &[u8],
        steps: Steps,
    ) -> [Option<Bonus>; MAX_STEPS] {
        let mut used = [None; MAX_STEPS];
        let steps: Vec<Step> = steps.iter().collect();
        let left: Vec<Move> = dice.iter().map(|&by| Move { by, bonus: None }).collect();
        if !self.bonus_fit(game, roll, self.to_roll(), &steps, &left, &mut used) {
            used = [None; MAX_STEPS];
        }
        used
    }

    /// Whether `steps` can be played from here with the moves `left`
    /// (dice first, then bonuses, each found in turn); the bonus of each
    /// step goes to `used`.
    fn bonus_fit(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        steps: &[Step],
        left: &[Move],
        used: &mut [Option<Bonus>],
    ) -> bool {
        let Some((&step, rest)) = steps.split_first() else {
            return true;
        };
        // The dice left as the search of the sequences has them (a die that
        // can move no piece forward moves one back).
        let dice: Vec<u8> = left
            .iter()
            .map(|m| {
                if m.bonus.is_some() {
                    m.by | BONUS
                } else {
                    m.by
                }
            })
            .collect();
        for (j, (m, &die)) in left.iter().zip(&dice).enumerate() {
            // A bonus never enters a piece.
            if left[..j].contains(m) || (m.bonus.is_some() && step.from == OUT) {
                continue;
            }
            let blocked = self.die_blocked(game, roll, seat, &dice, die);
            if self.step_of(game, roll, seat, step.from, die, blocked) != Ok(step) {
                continue;
            }
            let mut others = left.to_vec();
            others.remove(j);
            if self.fit_after(game, roll, seat, step, others, rest, used, m.bonus) {
                return true;
            }
        }
        // Two dice that add up to the entering sum, used together.
        if step.from == OUT && !step.back && game.enter_sum > 0 {
            for a in 0..left.len() {
                for b in a + 1..left.len() {
                    let (x, y) = (left[a], left[b]);
                    if x.bonus.is_some()
                        || y.bonus.is_some()
                        || u16::from(x.by) + u16::from(y.by) != u16::from(game.enter_sum)
                    {
                        continue;
                    }
                    let mut others = left.to_vec();
                    others.remove(b);
                    others.remove(a);
                    if self.fit_after(game, roll, seat, step, others, rest, used, None) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether, once the step `step` is played from here with the
    /// moves `others` left (and the bonus it earns added to them), the
    /// steps `rest` fit (`bonus_fit`); if so, `used` gets `bonus` for the
    /// step played (`None`: a die) and the bonuses of the rest after it.
    #[allow(clippy::too_many_arguments)]
    fn fit_after(
        &self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        step: Step,
        mut others: Vec<Move>,
        rest: &[Step],
        used: &mut [Option<Bonus>],
        bonus: Option<Bonus>,
    ) -> bool {
        let mut next = self.clone();
        next.earn(game, roll, seat, step, &mut others);
        let fits = next.bonus_fit(
            game,
            roll,
            seat,
            rest,
            &others,
            used.get_mut(1..).unwrap_or(&mut []),
        );
        if let (true, Some(u)) = (fits, used.first_mut()) {
            *u = bonus;
        }
        fits
    }

    /// Plays the step `step` of seat `seat`'s piece and adds the
    /// bonus it earns to `left`: bringing the piece home first, else
    /// sending an opponent's piece out (as the turn itself earns them).
    fn earn(
        &mut self,
        game: &RaceGame,
        roll: &Roll,
        seat: usize,
        step: Step,
        left: &mut Vec<Move>,
    ) {
        let k = usize::from(self.pieces).max(1);
        let opponents_out = |s: &RaceState| {
            s.pos
                .iter()
                .enumerate()
                .filter(|&(j, &p)| j / k != seat && p == OUT)
                .count()
        };
        let before = opponents_out(self);
        let mut scratch = Vec::new();
        let Some((i, _)) = self.play_step(game, roll, seat, step, &mut scratch) else {
            return;
        };
        let home = game.home_from();
        let earned = if game.bonus_home > 0 && step.from < home && self.pos[i] >= home {
            Some((game.bonus_home, Bonus::Home))
        } else if game.bonus_capture > 0 && opponents_out(self) > before {
            Some((game.bonus_capture, Bonus::Capture))
        } else {
            None
        };
        if let Some((by, bonus)) = earned {
            if left.len() < 2 * MAX_STEPS {
                left.push(Move {
                    by,
                    bonus: Some(bonus),
                });
            }
        }
    }
}
