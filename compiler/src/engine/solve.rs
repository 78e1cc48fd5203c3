//! A general solver: every position reachable from the starts, valued under perfect play by
//! retrograde analysis, so games whose play can cycle are solved too (and never recurse).

use super::{Engine, Move, Outcome, State};
use std::collections::{HashMap, VecDeque};

/// Positions the solver explores before it calls a game too big to solve. The device's table
/// for a solved game holds two bits a position, so this is also about the largest table a
/// board's flash could hold.
pub const MAX_STATES: usize = 200_000;

/// A position's value for the player to move, with perfect play on both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins in this many plies at most.
    Win(u16),
    /// Loses in this many plies at least.
    Loss(u16),
    /// Neither side can force a win: the game ends drawn, or never ends.
    Draw,
}

impl Value {
    pub fn describe(self) -> String {
        match self {
            Value::Win(n) => format!("the player to move wins (in {n} plies at most)"),
            Value::Loss(n) => format!("the player to move loses (in {n} plies at least)"),
            Value::Draw => "a draw".into(),
        }
    }
}

/// The game's positions and their values.
pub struct Solved {
    /// Solver keys (see [`Engine::normalise`]) in discovery order; a key's index is its id.
    pub states: Vec<State>,
    pub index: HashMap<State, u32>,
    pub values: Vec<Value>,
    /// Ids of the positions reached by each ply, in [`Engine::plies`] order.
    pub children: Vec<Vec<u32>>,
    /// Per ply of [`Solved::children`], whether it keeps the turn (a last counter sown into
    /// the mover's store): its position's value is then the mover's own, not the opponent's.
    pub keeps: Vec<Vec<bool>>,
    /// Finished positions (the game's endings hold, or nobody may move).
    pub terminal: Vec<bool>,
    /// Positions from which play can go on forever without either side being able to force an
    /// end (left as draws).
    pub cycling: usize,
    /// Positions where no ending holds and nobody may move.
    pub stuck: usize,
    /// Whether play can come back to a position it left (a cycle among the positions): the
    /// device's table then keeps how far each lost position is from its end.
    pub repeats: bool,
}

/// Why a game was not solved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooBig {
    /// Positions found before giving up.
    pub explored: usize,
}

impl Solved {
    pub fn value(&self, engine: &Engine, s: &State) -> Option<Value> {
        self.index.get(&engine.normalise(s.clone())).map(|&i| self.values[i as usize])
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// Every position reachable from `starts`, or [`TooBig`] past `limit` positions.
pub fn explore(engine: &Engine, starts: &[State], limit: usize) -> Result<Solved, TooBig> {
    let mut index: HashMap<State, u32> = HashMap::new();
    let mut states: Vec<State> = Vec::new();
    // The real state (whose turn included) each key was first reached with.
    let mut real: Vec<State> = Vec::new();
    for s in starts {
        let key = engine.normalise(s.clone());
        if !index.contains_key(&key) {
            index.insert(key.clone(), states.len() as u32);
            states.push(key);
            real.push(s.clone());
        }
    }
    let mut children = Vec::new();
    let mut keeps = Vec::new();
    let mut terminal = Vec::new();
    let mut stuck = 0;
    let mut next = 0;
    while next < states.len() {
        let s = real[next].clone();
        let plies = engine.plies(&s);
        let over = plies.is_empty();
        if over && engine.outcome(&s).is_none() {
            stuck += 1;
        }
        let mut kids = Vec::with_capacity(plies.len());
        let mut kept = Vec::with_capacity(plies.len());
        for m in plies {
            let t = engine.play(&s, m);
            kept.push(t.to_move == s.to_move);
            let key = engine.normalise(t.clone());
            let id = match index.get(&key) {
                Some(&id) => id,
                None => {
                    if states.len() >= limit {
                        return Err(TooBig { explored: states.len() });
                    }
                    let id = states.len() as u32;
                    index.insert(key.clone(), id);
                    states.push(key);
                    real.push(t);
                    id
                }
            };
            kids.push(id);
        }
        children.push(kids);
        keeps.push(kept);
        terminal.push(over);
        next += 1;
    }
    let values = retrograde(engine, &real, &children, &keeps, &terminal);
    let cycling = values.iter().zip(&terminal).filter(|(v, t)| v.is_none() && !**t).count();
    let repeats = has_cycle(&children);
    Ok(Solved {
        repeats,
        values: values.into_iter().map(|v| v.unwrap_or(Value::Draw)).collect(),
        states,
        index,
        children,
        keeps,
        terminal,
        cycling,
        stuck,
    })
}

/// Values backed up from the finished positions; `None` where play can go round for ever. A
/// ply that keeps the turn hands its position's value back to the same player, any other to
/// the opponent.
fn retrograde(
    engine: &Engine,
    real: &[State],
    children: &[Vec<u32>],
    keeps: &[Vec<bool>],
    terminal: &[bool],
) -> Vec<Option<Value>> {
    let n = real.len();
    let mut parents: Vec<Vec<(u32, bool)>> = vec![Vec::new(); n];
    for (p, (kids, kept)) in children.iter().zip(keeps).enumerate() {
        for (&k, &same) in kids.iter().zip(kept) {
            parents[k as usize].push((p as u32, same));
        }
    }
    let mut value: Vec<Option<Value>> = vec![None; n];
    let mut open: Vec<usize> = children.iter().map(Vec::len).collect();
    let mut drawn: Vec<bool> = vec![false; n];
    let mut longest: Vec<u16> = vec![0; n];
    let mut queue = VecDeque::new();
    for i in 0..n {
        if terminal[i] {
            let s = &real[i];
            value[i] = Some(match engine.outcome(s) {
                Some(Outcome::Win(w)) if w == s.to_move => Value::Win(0),
                Some(Outcome::Win(_)) => Value::Loss(0),
                // A draw, or stuck with nobody able to move.
                _ => Value::Draw,
            });
            queue.push_back(i);
        }
    }
    while let Some(k) = queue.pop_front() {
        let v = value[k].expect("queued positions have values");
        for &(p, same) in &parents[k] {
            let p = p as usize;
            if value[p].is_some() {
                continue;
            }
            // The child's value as the parent's mover sees it, told as the opponent's.
            let v = match (v, same) {
                (Value::Win(d), true) => Value::Loss(d),
                (Value::Loss(d), true) => Value::Win(d),
                (v, _) => v,
            };
            match v {
                // The first losing reply found is a shortest one: the queue runs by depth.
                Value::Loss(d) => {
                    value[p] = Some(Value::Win(d + 1));
                    queue.push_back(p);
                }
                Value::Win(_) | Value::Draw => {
                    if let Value::Win(d) = v {
                        longest[p] = longest[p].max(d + 1);
                    } else {
                        drawn[p] = true;
                    }
                    open[p] -= 1;
                    if open[p] == 0 {
                        value[p] = Some(if drawn[p] { Value::Draw } else { Value::Loss(longest[p]) });
                        queue.push_back(p);
                    }
                }
            }
        }
    }
    value
}

impl Engine {
    /// The best plies in `s` by the solved values: those that win at once (except on a line,
    /// whose device does not look for them), else those that leave the opponent lost (where
    /// positions can repeat, those nearest the end, as the device's table keeps that
    /// distance; otherwise any, as every game of them ends), else those that draw, else any.
    /// A ply that keeps the turn is judged by its position's value for the mover itself.
    pub fn best_plies(&self, solved: &Solved, s: &State) -> Vec<Move> {
        let scored: Vec<(Move, i32)> = self
            .plies(s)
            .into_iter()
            .map(|m| {
                // The line games' device (runtime::strategy) keeps no tier for a win at once.
                let at_once = !matches!(self.shape, super::Shape::Line { .. });
                let child = self.play(s, m);
                // The child's value told as the opponent's: the mover's own, turned over.
                let value = match (solved.value(self, &child), child.to_move == s.to_move) {
                    (Some(Value::Win(n)), true) => Some(Value::Loss(n)),
                    (Some(Value::Loss(n)), true) => Some(Value::Win(n)),
                    (v, _) => v,
                };
                let score = match value {
                    Some(Value::Loss(0)) if at_once => i32::MAX,
                    Some(Value::Loss(n)) if solved.repeats => i32::MAX - 1 - i32::from(n),
                    Some(Value::Loss(_)) => 3,
                    Some(Value::Draw) | None => 1,
                    Some(Value::Win(_)) => 0,
                };
                (m, score)
            })
            .collect();
        let best = scored.iter().map(|x| x.1).max();
        scored.into_iter().filter(|x| Some(x.1) == best).map(|x| x.0).collect()
    }
}

/// Whether the graph of `children` has a cycle: a position a topological order never reaches.
pub fn has_cycle(children: &[Vec<u32>]) -> bool {
    let mut into = vec![0u32; children.len()];
    for c in children.iter().flatten() {
        into[*c as usize] += 1;
    }
    let mut ready: VecDeque<usize> = (0..children.len()).filter(|&i| into[i] == 0).collect();
    let mut ordered = 0;
    while let Some(i) = ready.pop_front() {
        ordered += 1;
        for &c in &children[i] {
            into[c as usize] -= 1;
            if into[c as usize] == 0 {
                ready.push_back(c as usize);
            }
        }
    }
    ordered < children.len()
}
