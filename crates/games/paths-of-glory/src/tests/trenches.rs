//! 11.2 Trenches: digging and enemy entry.

use crate::state::Trench;
use crate::trenches::{dig, entered};
use crate::Side;

fn t(side: Side, level: u8) -> Option<Trench> {
    Some(Trench { side, level })
}

#[test]
fn digging_11_2_2_and_11_2_3() {
    // A German army (LF 3): a 3 digs, a 4 does not.
    assert_eq!(dig(None, Side::Cp, 3, 3, 0), t(Side::Cp, 1));
    assert_eq!(dig(None, Side::Cp, 3, 4, 0), None);
    // A Russian army (LF 2) on a level 1: a 2 raises it to 2; never above 2.
    assert_eq!(dig(t(Side::Ap, 1), Side::Ap, 2, 2, 0), t(Side::Ap, 2));
    assert_eq!(dig(t(Side::Ap, 2), Side::Ap, 2, 1, 0), t(Side::Ap, 2));
    // The optional −1 after a failed attempt (2022 11.2.10) makes a 4 dig for LF 3.
    assert_eq!(dig(None, Side::Cp, 3, 4, -1), t(Side::Cp, 1));
}

#[test]
fn enemy_entry_11_2_5_and_11_2_6() {
    assert_eq!(entered(t(Side::Ap, 1), Side::Cp), None);
    assert_eq!(entered(t(Side::Ap, 2), Side::Cp), t(Side::Cp, 1));
    assert_eq!(entered(t(Side::Ap, 2), Side::Ap), t(Side::Ap, 2));
    assert_eq!(entered(None, Side::Cp), None);
}
