//! State checksums: a 64-bit hash of a value's compact binary form, the same on every platform
//! and every run. Every step of a game's record carries the checksum of the state after it, so
//! that a replay can prove it rebuilt the very same game.
//!
//! The value is walked through serde, as for saving it, but nothing is written out: each number
//! goes into the hash as its little-endian bytes, each string and sequence with its length
//! first, each enum as its variant's index. No text is formatted and nothing is allocated, so
//! a checksum costs a small part of what hashing the value's JSON would.

use serde::ser::{self, Serialize};

/// The running hash (FNV-1a over 64-bit words, then mixed).
#[derive(Clone, Debug)]
pub struct StateHasher {
    h: u64,
}

impl Default for StateHasher {
    fn default() -> StateHasher {
        StateHasher::new()
    }
}

impl StateHasher {
    pub fn new() -> StateHasher {
        StateHasher {
            h: 0xcbf2_9ce4_8422_2325,
        }
    }

    #[inline]
    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w).wrapping_mul(0x100_0000_01b3);
    }

    fn bytes(&mut self, b: &[u8]) {
        self.word(b.len() as u64);
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.word(u64::from_le_bytes(last));
    }

    /// Adds a value.
    pub fn add<T: Serialize + ?Sized>(&mut self, value: &T) {
        // Hashing cannot fail: every method below returns Ok.
        let _ = value.serialize(&mut *self);
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        // A final mix, so that nearby states give far-apart sums.
        let mut x = self.h;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x
    }
}

/// The checksum of one value.
pub fn checksum<T: Serialize + ?Sized>(value: &T) -> u64 {
    let mut h = StateHasher::new();
    h.add(value);
    h.finish()
}

/// Hashing never fails; serde still wants an error type.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Never {
        Never
    }
}

type R = Result<(), Never>;

impl ser::Serializer for &mut StateHasher {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> R {
        self.word(v as u64);
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> R {
        self.word(v as i64 as u64);
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> R {
        self.word(v as i64 as u64);
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> R {
        self.word(v as i64 as u64);
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> R {
        self.word(v as u64);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> R {
        self.word(v as u64);
        self.word((v >> 64) as u64);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.word(v as u64);
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> R {
        self.word(v as u64);
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> R {
        self.word(v as u64);
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> R {
        self.word(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> R {
        self.word(v as u64);
        self.word((v >> 64) as u64);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.word(v.to_bits() as u64);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> R {
        self.word(v.to_bits());
        Ok(())
    }
    fn serialize_char(self, v: char) -> R {
        self.word(v as u64);
        Ok(())
    }
    fn serialize_str(self, v: &str) -> R {
        self.bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> R {
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> R {
        self.word(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> R {
        self.word(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, i: u32, _: &'static str) -> R {
        self.word(i as u64);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        i: u32,
        _: &'static str,
        value: &T,
    ) -> R {
        self.word(i as u64);
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, Never> {
        self.word(len.map_or(u64::MAX, |l| l as u64));
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_tuple_variant(self, _: &'static str, i: u32, _: &'static str, _: usize) -> Result<Self, Never> {
        self.word(i as u64);
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, Never> {
        self.word(len.map_or(u64::MAX, |l| l as u64));
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    fn serialize_struct_variant(self, _: &'static str, i: u32, _: &'static str, _: usize) -> Result<Self, Never> {
        self.word(i as u64);
        Ok(self)
    }
}

macro_rules! compound {
    ($tr:ident, $m:ident $(, $key:ident)?) => {
        impl ser::$tr for &mut StateHasher {
            type Ok = ();
            type Error = Never;
            fn $m<T: Serialize + ?Sized>(&mut self, $($key: &'static str,)? value: &T) -> R {
                value.serialize(&mut **self)
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);
compound!(SerializeStruct, serialize_field, _key);
compound!(SerializeStructVariant, serialize_field, _key);

impl ser::SerializeMap for &mut StateHasher {
    type Ok = ();
    type Error = Never;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> R {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> R {
        value.serialize(&mut **self)
    }
    fn end(self) -> R {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Unit {
        hex: Option<u16>,
        name: String,
        steps: Vec<u8>,
    }

    #[test]
    fn equal_values_equal_sums_and_any_change_shows() {
        let a = Unit {
            hex: Some(512),
            name: "6a".into(),
            steps: vec![2, 1],
        };
        let same = Unit {
            hex: Some(512),
            name: "6a".into(),
            steps: vec![2, 1],
        };
        assert_eq!(checksum(&a), checksum(&same));
        let others = [
            Unit {
                hex: None,
                ..same_as(&a)
            },
            Unit {
                hex: Some(513),
                ..same_as(&a)
            },
            Unit {
                name: "6b".into(),
                ..same_as(&a)
            },
            Unit {
                steps: vec![1, 2],
                ..same_as(&a)
            },
            Unit {
                steps: vec![2, 1, 0],
                ..same_as(&a)
            },
        ];
        for o in &others {
            assert_ne!(checksum(&a), checksum(o));
        }
        // Lengths go in first: ("ab", "c") and ("a", "bc") differ.
        assert_ne!(checksum(&("ab", "c")), checksum(&("a", "bc")));
    }

    fn same_as(u: &Unit) -> Unit {
        Unit {
            hex: u.hex,
            name: u.name.clone(),
            steps: u.steps.clone(),
        }
    }

    #[test]
    fn the_sum_is_pinned() {
        // A build that hashed differently would refuse every save: pin one value.
        assert_eq!(checksum(&(1u8, "Stalingrad", [3u16, 4])), PINNED);
    }

    const PINNED: u64 = 8664885033247043061;
}
