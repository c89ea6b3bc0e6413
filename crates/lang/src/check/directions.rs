//! Directions: absolute and relative names, vectors, and sets of them.

use super::merge::Merged;
use crate::ast::{Direction, Name, Spanned};
use crate::diagnostic::{Code, Diagnostic};
use crate::suggest::unknown_help;
use std::collections::HashMap;

/// The longest vector component that can mean anything: a move across the
/// largest board.
pub const MAX_COMPONENT: i64 = 25;

/// The absolute directions.
pub const ABSOLUTE: [(&str, (i8, i8)); 8] = [
    ("n", (0, 1)),
    ("s", (0, -1)),
    ("e", (1, 0)),
    ("w", (-1, 0)),
    ("ne", (1, 1)),
    ("nw", (-1, 1)),
    ("se", (1, -1)),
    ("sw", (-1, -1)),
];

/// The relative directions.
pub const RELATIVE: [&str; 8] = [
    "forward",
    "backward",
    "left",
    "right",
    "forward-left",
    "forward-right",
    "backward-left",
    "backward-right",
];

/// The built-in sets.
pub const SETS: [(&str, &[&str]); 3] = [
    ("diagonal", &["ne", "nw", "se", "sw"]),
    ("orthogonal", &["n", "s", "e", "w"]),
    ("any", &["n", "ne", "e", "se", "s", "sw", "w", "nw"]),
];

/// The declared sets, checked.
pub struct Directions<'a> {
    sets: HashMap<&'a str, &'a [Spanned<Direction>]>,
}

impl<'a> Directions<'a> {
    /// Checks the declared sets: names, cycles, vectors.
    pub fn new(merged: &'a Merged, diags: &mut Vec<Diagnostic>) -> Directions<'a> {
        let mut sets = HashMap::new();
        for (name, dirs) in &merged.directions {
            if is_builtin(&name.node) {
                diags.push(
                    Diagnostic::new(
                        Code::Duplicate,
                        format!("`{}` is a built-in direction", name.node),
                    )
                    .primary(name.span, "already defined by the language")
                    .help("give the set another name"),
                );
                continue;
            }
            sets.insert(name.node.as_str(), dirs.as_slice());
        }
        let directions = Directions { sets };
        for (name, dirs) in &merged.directions {
            if !directions.sets.contains_key(name.node.as_str()) {
                continue;
            }
            directions.check(dirs, diags);
            let looping = dirs.iter().find(|d| match &d.node {
                Direction::Named(member) => {
                    let mut visited = Vec::new();
                    directions.reaches(member, &name.node, &mut visited)
                }
                Direction::Vector(..) => false,
            });
            if let Some(member) = looping {
                diags.push(
                    Diagnostic::new(
                        Code::DirectionCycle,
                        format!("the direction set `{}` contains itself", name.node),
                    )
                    .primary(member.span, format!("this leads back to `{}`", name.node))
                    .help("a set may name other sets, but not itself"),
                );
            }
        }
        directions
    }

    /// Checks a list of directions: every name known, every vector usable.
    pub fn check(&self, dirs: &[Spanned<Direction>], diags: &mut Vec<Diagnostic>) {
        for dir in dirs {
            match &dir.node {
                Direction::Vector(dx, dy) => {
                    if *dx == 0 && *dy == 0 {
                        diags.push(
                            Diagnostic::new(Code::ZeroVector, "the vector `(0, 0)` goes nowhere")
                                .primary(dir.span, "a zero-length direction")
                                .help("a vector needs a file or rank difference, such as `(1, 2)`"),
                        );
                    } else if dx.abs() > MAX_COMPONENT || dy.abs() > MAX_COMPONENT {
                        diags.push(
                            Diagnostic::new(
                                Code::VectorRange,
                                format!("the vector `({dx}, {dy})` is longer than any board"),
                            )
                            .primary(dir.span, "too long")
                            .help(format!(
                                "each part of a vector is from -{MAX_COMPONENT} to {MAX_COMPONENT}"
                            )),
                        );
                    }
                }
                Direction::Named(name) => {
                    if !is_builtin(name) && !self.sets.contains_key(name.as_str()) {
                        diags.push(self.unknown(name, dir));
                    }
                }
            }
        }
    }

    /// Whether the set `from` names `target`, directly or through other sets.
    fn reaches(&self, from: &'a str, target: &str, visited: &mut Vec<&'a str>) -> bool {
        if from == target {
            return true;
        }
        let Some((&key, &members)) = self.sets.get_key_value(from) else {
            return false;
        };
        if visited.contains(&key) {
            return false;
        }
        visited.push(key);
        members.iter().any(|m| match &m.node {
            Direction::Named(n) => self.reaches(n, target, visited),
            Direction::Vector(..) => false,
        })
    }

    fn unknown(&self, name: &str, dir: &Spanned<Direction>) -> Diagnostic {
        let mut known: Vec<&str> = ABSOLUTE.iter().map(|(n, _)| *n).collect();
        known.extend(RELATIVE);
        known.extend(SETS.iter().map(|(n, _)| *n));
        known.extend(self.sets.keys().copied());
        let name_only = Name::new(name.to_string(), dir.span);
        Diagnostic::new(
            Code::UnknownDirection,
            format!("unknown direction `{name}`"),
        )
        .primary(name_only.span, "not a direction")
        .help(unknown_help(
            name,
            known,
            "declare a set with `directions NAME = ...`",
        ))
    }

    /// The vectors of a list of directions for a side whose forward is
    /// `forward`, in order, without repeats; unknown names are skipped (they
    /// have been reported).
    pub fn resolve(&self, dirs: &[Spanned<Direction>], forward: (i8, i8)) -> Vec<(i8, i8)> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        for d in dirs {
            self.resolve_one(&d.node, forward, &mut path, &mut out);
        }
        out
    }

    fn resolve_one(
        &self,
        dir: &Direction,
        forward: (i8, i8),
        path: &mut Vec<String>,
        out: &mut Vec<(i8, i8)>,
    ) {
        let mut push = |v: (i8, i8)| {
            if v != (0, 0) && !out.contains(&v) {
                out.push(v);
            }
        };
        match dir {
            Direction::Vector(dx, dy) => {
                if let (Ok(dx), Ok(dy)) = (i8::try_from(*dx), i8::try_from(*dy)) {
                    if i64::from(dx).abs() <= MAX_COMPONENT && i64::from(dy).abs() <= MAX_COMPONENT
                    {
                        push((dx, dy));
                    }
                }
            }
            Direction::Named(name) => {
                if let Some(v) = absolute(name).or_else(|| relative(name, forward)) {
                    push(v);
                } else if let Some((_, members)) = SETS.iter().find(|(n, _)| n == name) {
                    for m in members.iter() {
                        if let Some(v) = absolute(m) {
                            push(v);
                        }
                    }
                } else if let Some(members) = self.sets.get(name.as_str()) {
                    if path.contains(name) {
                        return;
                    }
                    path.push(name.clone());
                    for m in members.iter() {
                        self.resolve_one(&m.node, forward, path, out);
                    }
                    path.pop();
                }
            }
        }
    }
}

/// Whether a name is a direction of the language.
fn is_builtin(name: &str) -> bool {
    ABSOLUTE.iter().any(|(n, _)| *n == name)
        || RELATIVE.contains(&name)
        || SETS.iter().any(|(n, _)| *n == name)
}

/// An absolute direction's vector.
fn absolute(name: &str) -> Option<(i8, i8)> {
    ABSOLUTE.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// A relative direction's vector for a side facing `forward`.
fn relative(name: &str, (fx, fy): (i8, i8)) -> Option<(i8, i8)> {
    let left = (-fy, fx);
    let right = (fy, -fx);
    let back = (-fx, -fy);
    let add = |a: (i8, i8), b: (i8, i8)| (a.0 + b.0, a.1 + b.1);
    Some(match name {
        "forward" => (fx, fy),
        "backward" => back,
        "left" => left,
        "right" => right,
        "forward-left" => add((fx, fy), left),
        "forward-right" => add((fx, fy), right),
        "backward-left" => add(back, left),
        "backward-right" => add(back, right),
        _ => return None,
    })
}
