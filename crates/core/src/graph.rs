//! Point-to-point maps (spaces joined by connections), in the same model as hex grids: both
//! are a [`Topology`] the searches walk, so movement, supply and retreat searches serve both.

use crate::hex::{Dir, Hex, HexGrid};
use serde::{Deserialize, Serialize};

/// Anything the searches can walk: numbered nodes and, per node, numbered exits.
pub trait Topology {
    /// How a node's exits are told apart: the direction ([`Dir`], 0..6) on a hex grid, the
    /// index of the connection (`u16`, a map may have hundreds) on a point-to-point map.
    type Exit: Copy;
    /// Number of nodes (hexes or spaces).
    fn node_count(&self) -> usize;
    /// Calls `f(exit, neighbour)` for every neighbour of `node`.
    fn for_each_neighbour(&self, node: Hex, f: impl FnMut(Self::Exit, Hex));
}

impl Topology for HexGrid {
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

/// A space on a point-to-point map.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Space {
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
    pub a: Hex,
    pub b: Hex,
    pub features: u32,
}

/// A point-to-point map. Nodes reuse the [`Hex`] index type so searches are shared.
#[derive(Clone, Debug, Default)]
pub struct PointMap {
    pub spaces: Vec<Space>,
    pub connections: Vec<Connection>,
    /// Per space: (connection index, neighbour).
    adjacency: Vec<Vec<(u16, Hex)>>,
}

impl PointMap {
    /// Builds the adjacency lists; fails on a connection to a space that does not exist, and
    /// on more connections than a `u16` can number.
    pub fn new(spaces: Vec<Space>, connections: Vec<Connection>) -> Result<PointMap, String> {
        if connections.len() > u16::MAX as usize + 1 {
            return Err(format!(
                "{} connections; a map has at most {}",
                connections.len(),
                u16::MAX as usize + 1
            ));
        }
        let mut adjacency = vec![Vec::new(); spaces.len()];
        for (i, c) in connections.iter().enumerate() {
            if c.a.idx() >= spaces.len() || c.b.idx() >= spaces.len() || c.a == c.b {
                return Err(format!("connection {i} does not join two spaces of the map"));
            }
            adjacency[c.a.idx()].push((i as u16, c.b));
            adjacency[c.b.idx()].push((i as u16, c.a));
        }
        Ok(PointMap {
            spaces,
            connections,
            adjacency,
        })
    }

    /// The space with a given id.
    pub fn find(&self, id: &str) -> Option<Hex> {
        self.spaces.iter().position(|s| s.id == id).map(|i| Hex(i as u16))
    }

    /// The connection index between two spaces, if they are connected.
    pub fn connection(&self, a: Hex, b: Hex) -> Option<u16> {
        self.adjacency[a.idx()].iter().find(|(_, n)| *n == b).map(|(c, _)| *c)
    }
}

impl Topology for PointMap {
    type Exit = u16;

    fn node_count(&self) -> usize {
        self.spaces.len()
    }

    fn for_each_neighbour(&self, node: Hex, mut f: impl FnMut(u16, Hex)) {
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
            .map(|i| Space {
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
                a: Hex(i),
                b: Hex((i + 1) % n),
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
            map.for_each_neighbour(Hex(i), |c, n| {
                let conn = map.connections[c as usize];
                assert!(conn.a == Hex(i) && conn.b == n || conn.b == Hex(i) && conn.a == n);
                assert_eq!(map.connection(Hex(i), n), Some(c));
                seen[c as usize] += 1;
            });
        }
        assert!(seen.iter().all(|&k| k == 2), "each connection is seen from both ends");
    }
}
