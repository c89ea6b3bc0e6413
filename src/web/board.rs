//! Board games in the browser: a game in progress is its start and the
//! moves played; every request builds its [`BoardSession`] again from them
//! (counted in the store's [`super::store::Work`]), off the async threads:
//! once per change (the change and the new state from the same session).
//! The state sent to the page (the board drawn), a person's move typed or
//! clicked, resigning, the PDN download, and a loaded file's moves; the
//! verbs common to both kinds go through [`Kind`].

// A refusal is the HTTP answer itself (`Err(Response)`).
#![allow(clippy::result_large_err)]

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::change::change as change_game;
use super::kind::{HintOf, Kind, NextOf, Step, TurnOf};
use super::reply::{
    bad, broken, download, file_stem, game_over, no_game, parse_id, refuse, MAX_PLIES,
};
use super::store::{BoardPlay, OpenGame, Play, Setup};
use super::AppState;
use crate::board::{Move, Position, Tables};
use crate::session::board::{Ending, Next};
use crate::session::{BoardSession, Entry, Undo};

impl Kind for BoardPlay {
    type Session<'a> = BoardSession<'a>;

    const PERSON_TO_MOVE: &'static str = "a person is to move";
    const NO_HINT: &'static str = "no move to suggest";
    const ERROR_PREFIX: &'static str = "";

    fn session<R>(
        &self,
        setup: &Setup,
        f: impl FnOnce(&mut BoardSession<'_>) -> R,
    ) -> Result<R, String> {
        let tables = Arc::clone(&self.tables);
        let view = BoardSession::players_view(&tables);
        let mut s = session_of(&view, self, setup)?;
        Ok(f(&mut s))
    }

    fn session_mut<R>(
        &mut self,
        setup: &Setup,
        f: impl FnOnce(&mut BoardSession<'_>, &mut BoardPlay) -> R,
    ) -> Result<R, String> {
        let tables = Arc::clone(&self.tables);
        let view = BoardSession::players_view(&tables);
        let mut s = session_of(&view, self, setup)?;
        Ok(f(&mut s, self))
    }

    fn step<'a>(next: NextOf<'a, Self>) -> Step<TurnOf<'a, Self>> {
        match next {
            Next::Played(turn) => Step::Played(turn),
            Next::Person => Step::Person,
            Next::Over(_) => Step::Over,
        }
    }

    fn view(&self, _id: u64, setup: &Setup) -> Result<Value, String> {
        self.session(setup, |s| board_view(setup, self, s))
    }

    fn keep_turn(
        &mut self,
        setup: &Setup,
        s: &BoardSession<'_>,
        turn: TurnOf<'_, Self>,
    ) -> Option<Value> {
        self.played.push(turn.mv);
        self.undone.clear();
        self.events = turn.events;
        Some(board_view(setup, self, s))
    }

    fn hint_json(s: &BoardSession<'_>, hint: HintOf<'_, Self>) -> Value {
        json!({ "hint": move_json(s.tables(), &hint) })
    }

    /// Back to the previous turn of the side to move (the session's undo).
    fn undo(&mut self, setup: &Setup) -> Result<Option<Value>, Response> {
        self.session_mut(setup, |s, b| {
            if s.undo() == Undo::Nothing {
                return Err(refuse(StatusCode::CONFLICT, "nothing to undo"));
            }
            let kept = s.game().played().len();
            let back: Vec<Move> = b.played.drain(kept..).rev().collect();
            b.undone.extend(back);
            b.events.clear();
            // A resignation taken back is still in this session: its state
            // is made afresh.
            let resigned = b.resigned.take().is_some();
            Ok((!resigned).then(|| board_view(setup, b, s)))
        })
        .map_err(broken)?
    }

    /// Plays again the next move taken back (a session built again keeps
    /// no moves taken back: they are the stored game's).
    fn redo(&mut self, setup: &Setup) -> Result<Option<Value>, Response> {
        let Some(m) = self.undone.pop() else {
            return Err(refuse(StatusCode::CONFLICT, "nothing to redo"));
        };
        let view = self
            .session_mut(setup, |s, b| {
                b.events = s.play_turn(&m).events;
                b.played.push(m);
                board_view(setup, b, s)
            })
            .map_err(broken)?;
        Ok(Some(view))
    }
}

/// The session of a stored game, its moves replayed (counted in the game's
/// [`super::store::Work`]: each replay generates the moves of every
/// position played).
fn session_of<'t>(
    view: &'t crate::agents::board::BoardGame<'t>,
    b: &BoardPlay,
    setup: &Setup,
) -> Result<BoardSession<'t>, String> {
    setup
        .work
        .sessions
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut s = BoardSession::new(
        view,
        b.start.clone(),
        &setup.agents,
        setup.seed,
        setup.strength,
    )
    .map_err(|e| e.to_string())?
    .with_max_plies(MAX_PLIES as u32)
    .named(&setup.name, &setup.options);
    for m in &b.played {
        s.play(m);
    }
    if let Some(side) = b.resigned {
        s.resign_side(side);
    }
    Ok(s)
}

/// Opens a board game of `tables` with the agents of `setup` (people where
/// none is given): the game and its first state.
pub fn open(tables: Tables, mut setup: Setup) -> Result<(OpenGame, Value), Response> {
    if setup.agents.len() > tables.sides() {
        return Err(bad(format!(
            "{} sides given; this game has {}",
            setup.agents.len(),
            tables.sides()
        )));
    }
    setup.agents.resize(tables.sides(), "human".into());
    let start = Position::start(&tables);
    let t = Arc::new(tables);
    let play = BoardPlay::new(Arc::clone(&t), start.clone());
    // The agents are checked now, so a bad name is refused at once; the
    // session is the game's first state too.
    let players = BoardSession::players_view(&t);
    let s = BoardSession::new(&players, start, &setup.agents, setup.seed, setup.strength)
        .map_err(|e| bad(e.to_string()))?
        .with_max_plies(MAX_PLIES as u32);
    let view = board_view(&setup, &play, &s);
    Ok((
        OpenGame {
            setup,
            play: Play::Board(play),
        },
        view,
    ))
}

/// Puts the moves of a loaded record (`record`) or PDN game (`pdn`) in a
/// board game just opened: played (from its last move on) or, `from_start`,
/// each to come again by redo; 422 naming the first that can't be played.
pub fn load(
    b: &mut BoardPlay,
    text: &str,
    record: bool,
    pdn: Option<crate::pdn::PdnGame>,
    from_start: bool,
) -> Result<(), Response> {
    let unplayable = |e: String| refuse(StatusCode::UNPROCESSABLE_ENTITY, e);
    let (start, moves) = if record {
        let rec = crate::record::BoardRecord::parse(text)
            .map_err(|p| unplayable(format!("the record: {}", p.error)))?;
        let r = rec.replay(&b.tables);
        if let Some(e) = r.error {
            return Err(unplayable(format!("the record: {e}")));
        }
        let start = rec
            .start(&b.tables)
            .map_err(|e| unplayable(format!("the record: {e}")))?;
        (start, r.played.into_iter().map(|(m, _)| m).collect())
    } else if let Some(p) = pdn {
        let (start, moves, error) = crate::pdn::play(&b.tables, &p);
        if let Some(e) = error {
            return Err(unplayable(format!("the PDN file: {e}")));
        }
        (start, moves)
    } else {
        return Err(bad("nothing to load"));
    };
    if moves.len() > MAX_PLIES {
        return Err(unplayable(format!(
            "{} plies; a game here has at most {MAX_PLIES}",
            moves.len()
        )));
    }
    b.start = start;
    if from_start {
        b.undone = moves.into_iter().rev().collect();
    } else {
        b.played = moves;
    }
    Ok(())
}

/// A move as the page sees it: notation, the squares it visits
/// (algebraic, from the start) and the squares it takes.
fn move_json(t: &Tables, m: &Move) -> Value {
    let alg = |s: crate::board::game::Sq| {
        t.game()
            .squares
            .get(usize::from(s.0))
            .map_or_else(String::new, |i| i.algebraic.clone())
    };
    let mut squares: Vec<String> = m.from.iter().map(|&s| alg(s)).collect();
    squares.extend(m.path.iter().map(|&s| alg(s)));
    json!({
        "notation": m.notation,
        "squares": squares,
        "captured": m.captured.iter().map(|&s| alg(s)).collect::<Vec<_>>(),
    })
}

/// The result of a game in words, None while it goes on.
fn result_text(s: &BoardSession<'_>) -> Option<String> {
    Some(match s.ending()? {
        Ending::Rules(o) => crate::narrate::board::outcome(s.tables(), &o),
        Ending::Resigned(side) => format!("{} resigned", s.name_of(side)),
        Ending::Limit(n) => format!("stopped after {}", crate::words::count(u64::from(n), "ply")),
    })
}

/// The state of a game as JSON, from its session (at the game's last
/// move).
fn board_view(setup: &Setup, b: &BoardPlay, s: &BoardSession<'_>) -> Value {
    let t = s.tables();
    let pos = s.game().pos();
    let result = result_text(s);
    let over = result.is_some();
    json!({
        "game": setup.name,
        "title": t.game().title,
        "options": setup.options,
        "sides": t.game().sides.iter().zip(&setup.agents).map(|(side, a)| json!({"name": side.name, "agent": a})).collect::<Vec<_>>(),
        "to_move": s.to_move(),
        "side_to_move": s.side_name(),
        "human_to_move": !over && s.human_to_move(),
        "computer_to_move": !over && !s.human_to_move(),
        "svg": crate::format::svg::board::Picture { over, ..Default::default() }.render(t, pos),
        "board": {
            "width": t.game().width, "height": t.game().height,
            "cell": crate::format::svg::board::CELL,
            "margin": crate::format::svg::board::MARGIN,
        },
        "squares": t.game().squares.iter().map(|q| json!({"name": q.algebraic, "file": q.file, "rank": q.rank, "number": q.number})).collect::<Vec<_>>(),
        // The game's own notation: squares by number (the page writes and
        // draws them so), else by letter and rank.
        "numbered": t.game().notation == crate::vocab::board::Notation::Numeric,
        // The board seen from its top: every person's side moves down it.
        "flip": crate::format::text::board::seen_from_the_top(t, &s.people()),
        "legal": if over { Vec::new() } else { s.game().legal().iter().map(|m| move_json(t, m)).collect::<Vec<_>>() },
        "last_move": s.game().played().last().map(|m| move_json(t, m)),
        "events": b.events,
        "moves": s.game().played().iter().map(|m| m.notation.clone()).collect::<Vec<_>>(),
        "move_list": s.move_list(),
        "position": pos.to_fen(t),
        "result": result,
        "can_undo": !b.played.is_empty(),
        "can_redo": !b.undone.is_empty(),
    })
}

/// Runs a change of a board game (a race game is refused), stores it and
/// answers with the new state.
async fn change(
    app: Arc<AppState>,
    id: &str,
    f: impl FnOnce(&mut BoardPlay, &Setup) -> Result<Option<Value>, Response> + Send + 'static,
) -> Response {
    change_game(app, id, |mut g| {
        let view = match &mut g.play {
            Play::Board(b) => f(b, &g.setup)?,
            Play::Race(_) => {
                return Err(refuse(
                    StatusCode::CONFLICT,
                    "this is a race game: roll and choose",
                ))
            }
        };
        Ok((g, view))
    })
    .await
}

/// The body of POST /api/games/{id}/move.
#[derive(Deserialize)]
pub struct MoveBody {
    /// The move as typed at the prompt: notation, a unique prefix, squares.
    #[serde(rename = "move")]
    text: String,
    /// The move exactly as written, no prefix of a longer one (the page's
    /// clicks: a square clicked names that square, never the moves that
    /// begin with its number).
    #[serde(default)]
    exact: bool,
}

/// POST /api/games/{id}/move: plays a move read as the prompt reads it;
/// 422 with the prompt's explanation when it is not a legal move. The game
/// is replayed once: the move is read, played and the new state made from
/// the same session.
pub async fn play(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Json(body): Json<MoveBody>,
) -> Response {
    if body.text.len() > 200 {
        return bad("a move is at most 200 characters");
    }
    change(app, &id, move |b, setup| {
        let view = b
            .session_mut(setup, |s, b| {
                if result_text(s).is_some() {
                    return Err(game_over());
                }
                if !s.human_to_move() {
                    return Err(refuse(StatusCode::CONFLICT, "the computer is to move"));
                }
                let entry = if body.exact {
                    match s.game().parse_move(&body.text) {
                        Ok(m) => Entry::Play(m),
                        Err(why) => Entry::Illegal(why),
                    }
                } else {
                    s.enter("", &body.text)
                };
                match entry {
                    Entry::Play(m) => {
                        b.events = s.play_turn(&m).events;
                        b.played.push(m);
                        b.undone.clear();
                        Ok(board_view(setup, b, s))
                    }
                    Entry::GoOn { so_far, moves } => Err((
                        StatusCode::UNPROCESSABLE_ENTITY,
                        Json(json!({
                            "error": format!("`{so_far}` begins several captures: {}", moves.join(", ")),
                            "moves": moves,
                        })),
                    )
                        .into_response()),
                    Entry::Illegal(why) | Entry::Unclear(why) => Err(refuse(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        crate::narrate::board::refusal(s.tables(), &why),
                    )),
                }
            })
            .map_err(broken)??;
        Ok(Some(view))
    })
    .await
}

/// POST /api/games/{id}/resign: the person to move resigns; while a
/// computer player is to move (and thinks), the person playing against it
/// (the only person's side; with none or several, the side to move).
pub async fn resign(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    change(app, &id, |b, setup| {
        let view = b
            .session_mut(setup, |s, b| {
                if result_text(s).is_some() {
                    return Err(game_over());
                }
                let (side, human) = (s.to_move(), s.human_to_move());
                let people: Vec<usize> = (0..setup.agents.len())
                    .filter(|&i| setup.agents[i] == "human")
                    .collect();
                let side = match people.as_slice() {
                    [person] if !human => *person,
                    _ => side,
                };
                b.resigned = Some(side);
                s.resign_side(side);
                Ok(board_view(setup, b, s))
            })
            .map_err(broken)??;
        Ok(Some(view))
    })
    .await
}

/// GET /api/games/{id}/pdn: the game as PDN (404 for a race game).
pub async fn pdn(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    let Some((g, _)) = parse_id(&id).and_then(|id| app.store.get(id)) else {
        return no_game();
    };
    let Play::Board(b) = &g.play else {
        return no_game();
    };
    let text = crate::pdn::write(&b.tables, &b.tables.game().title, &b.start, &b.played);
    download(
        "application/x-chess-pdn",
        format!("{}.pdn", file_stem(&g.setup.name)),
        text,
    )
}
