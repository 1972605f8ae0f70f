//! Point-to-point maps (spaces joined by connections), in the same model as hex grids: both
//! are a [`Topology`] the searches walk, so movement, supply and retreat searches serve both.
//!
//! A hex grid numbers its nodes with [`Hex`] and the exits of a hex by direction (0..6, a
//! [`Dir`]); a point-to-point map numbers its nodes with [`Space`] and its exits by the index
//! of the connection taken (a `u16`, since a map such as Paths of Glory has several hundred
//! connections). Each kind of map says which types it uses, so a rule written for one cannot be
//! handed the other's numbers by mistake.

use crate::hex::{Dir, Hex, HexGrid};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A node index the searches can store in their flat arrays: a number from 0 up, below
/// `u16::MAX` (the searches keep nodes in 16 bits and use `u16::MAX` for "none").
pub trait NodeIndex: Copy + Eq + Ord + fmt::Debug {
    /// The node with index `i`.
    fn from_idx(i: usize) -> Self;
    /// The index as `usize`, for array access.
    fn idx(self) -> usize;
}

impl NodeIndex for Hex {
    #[inline]
    fn from_idx(i: usize) -> Hex {
        debug_assert!(i < u16::MAX as usize);
        Hex(i as u16)
    }

    #[inline]
    fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A space on a point-to-point map, as an index into the map's lists (in file order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Space(pub u16);

impl Space {
    /// The index as `usize`, for array access.
    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

impl NodeIndex for Space {
    #[inline]
    fn from_idx(i: usize) -> Space {
        debug_assert!(i < u16::MAX as usize);
        Space(i as u16)
    }

    #[inline]
    fn idx(self) -> usize {
        self.0 as usize
    }
}

/// Anything the searches can walk: numbered nodes and, per node, its exits.
pub trait Topology {
    /// How nodes are numbered: [`Hex`] on a hex grid, [`Space`] on a point-to-point map.
    type Node: NodeIndex;
    /// How a node's exits are told apart: the direction ([`Dir`], 0..6) on a hex grid, the
    /// index of the connection (`u16`) on a point-to-point map.
    type Exit: Copy;
    /// Number of nodes (hexes or spaces).
    fn node_count(&self) -> usize;
    /// Calls `f(exit, neighbour)` for every neighbour of `node`.
    fn for_each_neighbour(&self, node: Self::Node, f: impl FnMut(Self::Exit, Self::Node));
}

impl Topology for HexGrid {
    type Node = Hex;
    type Exit = Dir;

    #[inline]
    fn node_count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn for_each_neighbour(&self, node: Hex, mut f: impl FnMut(Dir, Hex)) {
        for (d, &n) in self.neighbour_row(node).iter().enumerate() {
            if n != crate::hex::NO_HEX {
                f(d as Dir, Hex(n));
            }
        }
    }
}

/// What a point-to-point map knows of one space: its id, names, terrain and where it is drawn.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SpaceInfo {
    pub id: String,
    pub name_en: String,
    pub name_zh: String,
    /// Game-defined terrain bits.
    pub terrain: u32,
    /// Drawing position.
    pub x: f64,
    pub y: f64,
}

/// A connection between two spaces, with game-defined feature bits.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Connection {
    pub a: Space,
    pub b: Space,
    pub features: u32,
}

/// A point-to-point map: its spaces and the connections between them.
#[derive(Clone, Debug, Default)]
pub struct PointMap {
    pub spaces: Vec<SpaceInfo>,
    pub connections: Vec<Connection>,
    /// Per space: (connection index, neighbour), in connection order.
    adjacency: Vec<Vec<(u16, Space)>>,
    /// The space of each id (the first, if two share one).
    index: std::collections::HashMap<String, Space>,
}

impl PointMap {
    /// Builds the adjacency lists. Fails on a connection to a space that does not exist, on a
    /// connection from a space to itself, on two connections between the same two spaces, and
    /// on more spaces or connections than 16-bit indices can number.
    pub fn new(spaces: Vec<SpaceInfo>, connections: Vec<Connection>) -> Result<PointMap, String> {
        if spaces.len() >= u16::MAX as usize {
            return Err(format!("{} spaces; a map has at most {}", spaces.len(), u16::MAX - 1));
        }
        if connections.len() > u16::MAX as usize + 1 {
            return Err(format!(
                "{} connections; a map has at most {}",
                connections.len(),
                u16::MAX as usize + 1
            ));
        }
        let mut adjacency: Vec<Vec<(u16, Space)>> = vec![Vec::new(); spaces.len()];
        for (i, c) in connections.iter().enumerate() {
            if c.a.idx() >= spaces.len() || c.b.idx() >= spaces.len() {
                return Err(format!("connection {i} joins a space that is not on the map"));
            }
            if c.a == c.b {
                return Err(format!("connection {i} joins {} to itself", spaces[c.a.idx()].id));
            }
            if let Some(&(j, _)) = adjacency[c.a.idx()].iter().find(|&&(_, n)| n == c.b) {
                return Err(format!(
                    "connections {j} and {i} both join {} and {}",
                    spaces[c.a.idx()].id,
                    spaces[c.b.idx()].id
                ));
            }
            adjacency[c.a.idx()].push((i as u16, c.b));
            adjacency[c.b.idx()].push((i as u16, c.a));
        }
        let mut index = std::collections::HashMap::with_capacity(spaces.len());
        for (i, s) in spaces.iter().enumerate() {
            index.entry(s.id.clone()).or_insert(Space(i as u16));
        }
        Ok(PointMap {
            spaces,
            connections,
            adjacency,
            index,
        })
    }

    /// Number of spaces.
    pub fn len(&self) -> usize {
        self.spaces.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spaces.is_empty()
    }

    /// Every space, in order.
    pub fn space_indices(&self) -> impl Iterator<Item = Space> {
        (0..self.spaces.len() as u16).map(Space)
    }

    /// What the map knows of a space.
    pub fn space(&self, s: Space) -> &SpaceInfo {
        &self.spaces[s.idx()]
    }

    /// The space with a given id.
    pub fn find(&self, id: &str) -> Option<Space> {
        self.index.get(id).copied()
    }

    /// The connection index between two spaces, if they are connected.
    pub fn connection(&self, a: Space, b: Space) -> Option<u16> {
        self.adjacency[a.idx()].iter().find(|(_, n)| *n == b).map(|(c, _)| *c)
    }

    /// The connections of a space, as (connection index, neighbour), in connection order.
    pub fn exits(&self, s: Space) -> &[(u16, Space)] {
        &self.adjacency[s.idx()]
    }

    /// Whether two spaces are connected.
    pub fn adjacent(&self, a: Space, b: Space) -> bool {
        self.connection(a, b).is_some()
    }
}

impl Topology for PointMap {
    type Node = Space;
    type Exit = u16;

    #[inline]
    fn node_count(&self) -> usize {
        self.spaces.len()
    }

    #[inline]
    fn for_each_neighbour(&self, node: Space, mut f: impl FnMut(u16, Space)) {
        for &(c, n) in &self.adjacency[node.idx()] {
            f(c, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ring of `n` spaces, each joined to the next: connection `i` joins space `i` and
    /// space `i + 1` (the last one back to space 0).
    fn ring(n: u16) -> PointMap {
        let spaces = (0..n)
            .map(|i| SpaceInfo {
                id: format!("s{i}"),
                name_en: format!("Space {i}"),
                name_zh: format!("地区{i}"),
                terrain: 0,
                x: f64::from(i),
                y: 0.0,
            })
            .collect();
        let connections = (0..n)
            .map(|i| Connection {
                a: Space(i),
                b: Space((i + 1) % n),
                features: 0,
            })
            .collect();
        PointMap::new(spaces, connections).unwrap()
    }

    /// Every connection of a map with more than 255 of them is reported by its own index.
    #[test]
    fn every_exit_is_its_connection_index() {
        let map = ring(300);
        let mut seen = vec![0; 300];
        for i in 0..300u16 {
            map.for_each_neighbour(Space(i), |c, n| {
                let conn = map.connections[c as usize];
                assert!(conn.a == Space(i) && conn.b == n || conn.b == Space(i) && conn.a == n);
                assert_eq!(map.connection(Space(i), n), Some(c));
                seen[c as usize] += 1;
            });
        }
        assert!(seen.iter().all(|&k| k == 2), "each connection is seen from both ends");
    }

    #[test]
    fn refuses_loops_repeats_and_missing_spaces() {
        let map = ring(3);
        let with = |extra: Connection| {
            let mut connections = map.connections.clone();
            connections.push(extra);
            PointMap::new(map.spaces.clone(), connections).unwrap_err()
        };
        let c = |a, b| Connection {
            a: Space(a),
            b: Space(b),
            features: 0,
        };
        assert_eq!(with(c(1, 1)), "connection 3 joins s1 to itself");
        assert_eq!(with(c(2, 1)), "connections 1 and 3 both join s2 and s1");
        assert_eq!(with(c(0, 7)), "connection 3 joins a space that is not on the map");
    }
}
