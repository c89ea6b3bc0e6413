//! `arena`: one game between computer players, recorded for the lab: who
//! won and why, how long it took, how often each rule event fired, how often
//! the lead changed hands and how many turns were lost to passes.
//!
//! Game `g` of a run with seed `s` is played from `game_seed(s, g)` alone,
//! so a run gives the same records however its games are spread over
//! threads.

use super::eval::{leader, values};
use super::state::{EndCause, GameState, MAX_SEATS};
use super::{by_name, Agent, AgentError, Strength};

/// The record of one game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's own seed.
    pub seed: u64,
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Why the game ended.
    pub reason: EndCause,
    /// Plies played.
    pub plies: u32,
    /// How often each rule event fired (in the order of `GameState::counted`).
    pub events: Vec<u32>,
    /// How often the seat ahead by the shared evaluation changed (a tie
    /// changes nothing).
    pub lead_changes: u32,
    /// Turns lost to passes.
    pub skips: u32,
    /// The winner's points, in a game whose rules score a win.
    pub points: Option<u32>,
}

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The seed of game `index` of a run with seed `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    mix(seed ^ mix(index.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

/// The seed of the agent in `seat` in a game with seed `game`.
pub fn seat_seed(game: u64, seat: usize) -> u64 {
    mix(game.wrapping_add((seat as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)))
}

/// The agents of one game, by name, one per seat.
pub fn make_agents<'a, S: GameState + 'a>(
    names: &[String],
    seed: u64,
    strength: Strength,
    sample: &S,
) -> Result<Vec<Box<dyn Agent<S> + 'a>>, AgentError> {
    names
        .iter()
        .enumerate()
        .map(|(seat, n)| by_name(n, seat_seed(seed, seat), strength, sample))
        .collect()
}

/// Plays `state` to the end with one agent per seat.
pub fn play_game<S: GameState>(
    mut state: S,
    agents: &mut [Box<dyn Agent<S> + '_>],
    seed: u64,
) -> GameRecord {
    play_game_in(&mut state, agents, seed)
}

/// `play_game` in place: `state` is played to the end (a caller that plays
/// many games copies each start into the same state, reusing its buffers).
pub fn play_game_in<S: GameState>(
    state: &mut S,
    agents: &mut [Box<dyn Agent<S> + '_>],
    seed: u64,
) -> GameRecord {
    let mut rng = crate::rng::Rng::new(seed);
    let seats = state.seats().min(MAX_SEATS);
    let mut v = [0.0; MAX_SEATS];
    let mut lead = None;
    let mut lead_changes = 0;
    let mut skips = 0;
    loop {
        let n = state.move_count();
        if n > 0 {
            let seat = state.to_move();
            let i = match agents.get_mut(seat) {
                Some(a) => a.choose(state).min(n - 1),
                None => 0,
            };
            if state.is_pass(i) {
                skips += 1;
            }
            state.play(i);
        } else if state.chance_count() > 0 {
            let o = super::playout::draw_chance(state, &mut rng);
            state.play_chance(o);
        } else {
            break;
        }
        values(state, &mut v);
        if let Some(l) = leader(&v[..seats]) {
            if lead.is_some_and(|old| old != l) {
                lead_changes += 1;
            }
            lead = Some(l);
        }
    }
    let ending = state.ending();
    GameRecord {
        seed,
        winner: ending.and_then(|e| e.winner),
        reason: ending.map_or(EndCause::Unfinished, |e| e.reason),
        plies: state.plies(),
        events: state.event_counts().to_vec(),
        lead_changes,
        skips,
        points: state.points(),
    }
}
