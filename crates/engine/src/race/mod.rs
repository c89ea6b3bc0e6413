//! Race games: the compiled game ([`game::RaceGame`], what `compile` makes
//! of a rule file with a `track`) and the engine that plays it, the
//! counterpart of [`crate::board`] for board games.
//!
//! The race engine plays a compiled `RaceGame`. A `RaceState` holds where
//! every piece is, the turns each player owes and who rolls next; a turn is
//! a `Roll` (from the one seeded generator, or from a record), the legal
//! `Choice`s for it, and `RaceState::apply`, which moves the piece, applies
//! the cell rules and tells what happened as `Event`s. Agents pick choices
//! through `Policy` (seeded random, or the first choice), or through any
//! computer player, which sees a race as an `agents::race::RaceNode`.
//!
//! The turn, in the order of the rule file's statements:
//! 1. the player to roll rolls all the dice; the rules of the roll that hold
//!    apply first (`rolling 6 6: furthest out`; `end turn`: the roll is not
//!    played);
//! 2. the choices: `enter` when an out piece may enter with this roll, each
//!    cell with a piece of theirs that can move (nearest the finish first);
//!    `pass` only when there is none (or always, with `move optional`);
//! 3. the piece moves by the sum from its cell (an entering piece from 0);
//!    past the finish, the finish rule decides (bounce, stay, or finish);
//! 4. the landing rules of the landing cell apply, in order (with `landing
//!    rules chain`, again wherever they move the piece); then the resting
//!    rules of the cell where it comes to rest. Effects with a target move
//!    the pieces it picks (others on the cell, the player's furthest...);
//!    those pieces don't land;
//! 5. players home take their places; the outcome ends the game when its
//!    winner is known, or the game is drawn when no player can ever move
//!    again; an extra roll (earned by the roll and not lost) gives the same
//!    player another turn; otherwise the next player in seat order who is
//!    not home rolls, after the players who owe turns have missed them.
//!
//! On a circuit (`track 52 loop starts ... home 6`) a position is a piece's
//! progress along its seat's own path; `RaceGame::label` names it by the
//! cell of the loop or the home cell. On paths (`path white: a1-a4 m1-m8
//! a5-a6`) it is the step along the seat's path, named by the cell's name;
//! pieces of two seats meet on the cells both paths name. With sticks
//! (`throw 4 sticks`) a roll's faces are 0 or 1 and a piece moves by
//! `RaceGame::count` (their sum, or the value the throw's table gives it).

mod choice;
pub mod event;
pub mod fast;
pub mod game;
mod policy;
mod roll;
mod score;
mod state;

pub use choice::{Choice, Step, Steps, MAX_STEPS};
pub use event::Event;
pub use policy::{agent_seed, Policy};
pub use roll::Roll;
pub use score::Score;
pub use state::{Illegal, RaceState, Refusal, SetupError};
