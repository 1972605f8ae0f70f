//! Point-to-point maps (spaces joined by connections), in the same model as hex grids: both
//! are a [`Topology`] the searches walk, so movement, supply and retreat searches serve both.

use crate::hex::{Hex, HexGrid};
use serde::{Deserialize, Serialize};

/// Anything the searches can walk: numbered nodes and, per node, numbered exits.
pub trait Topology {
    /// Number of nodes (hexes or spaces).
    fn node_count(&self) -> usize;
    /// Calls `f(exit, neighbour)` for every neighbour of `node`. For hex grids the exit is the
    /// direction (0..6); for point-to-point maps it is the index of the connection.
    fn for_each_neighbour(&self, node: Hex, f: impl FnMut(u8, Hex));
}

impl Topology for HexGrid {
    #[inline]
    fn node_count(&self) -> usize {
        self.len()
    }

    #[inline]
    fn for_each_neighbour(&self, node: Hex, mut f: impl FnMut(u8, Hex)) {
        for (d, &n) in self.neighbour_row(node).iter().enumerate() {
            if n != crate::hex::NO_HEX {
                f(d as u8, Hex(n));
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
    /// Builds the adjacency lists; fails on a connection to a space that does not exist.
    pub fn new(spaces: Vec<Space>, connections: Vec<Connection>) -> Result<PointMap, String> {
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
    fn node_count(&self) -> usize {
        self.spaces.len()
    }

    fn for_each_neighbour(&self, node: Hex, mut f: impl FnMut(u8, Hex)) {
        for &(c, n) in &self.adjacency[node.idx()] {
            f(c.min(255) as u8, n);
        }
    }
}
