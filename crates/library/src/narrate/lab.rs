//! The few words of the lab's tables, from the engine's data: why a game
//! ended (`last piece`, `repetition`, `ply limit`: the `reason` column of
//! the CSV and Parquet rows, the `endings` of a summary) and the rule
//! events a kind of game counts (`captures`, `extra rolls`: the names of
//! the event columns).

use crate::agents::{Conversion, Counted, EndCause};
use crate::board::end::Cause;

/// Why a game ended, in a few words: `last piece`, `cannot move`, `home
/// first`, `unfinished`.
pub fn ending(reason: EndCause) -> &'static str {
    match reason {
        EndCause::Board(cause) => match cause {
            Cause::LastPiece => "last piece",
            Cause::NoPiecesLeft => "no pieces left",
            Cause::NoSideCanMove => "no side can move",
            Cause::CannotMove => "cannot move",
            Cause::Repetition => "repetition",
            Cause::NoProgress => "no progress",
            Cause::ReachedZone => "reached zone",
            Cause::FewPiecesLeft => "few pieces left",
            Cause::MostPieces => "most pieces",
            Cause::Line => "line",
            Cause::KindCaptured => "piece captured",
        },
        EndCause::PlyLimit => "ply limit",
        EndCause::HomeFirst => "home first",
        EndCause::NoOneCanMove => "no one can move",
        EndCause::RollLimit => "roll limit",
        EndCause::Unfinished => "unfinished",
    }
}

/// The name of a counted rule event: `captures`, `pieces removed`,
/// `turns missed`.
pub fn counted(event: Counted) -> &'static str {
    match event {
        Counted::Captures => "captures",
        Counted::PiecesRemoved => "pieces removed",
        Counted::Conversions(by) => match by {
            Conversion::Jump => "jump conversions",
            Conversion::Custodian => "custodian conversions",
            Conversion::Neighbours => "neighbour conversions",
            Conversion::Several => "conversions",
        },
        Counted::PiecesWonOver => "pieces won over",
        Counted::ZoneConversions => "zone conversions",
        Counted::Promotions => "promotions",
        Counted::Passes => "passes",
        Counted::Bumped => "bumped",
        Counted::SentOut => "sent out",
        Counted::TurnsMissed => "turns missed",
        Counted::ExtraRolls => "extra rolls",
    }
}
