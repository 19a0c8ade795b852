//! Faults: the API crash and restart, the ledger's restart and the replacement of its pod, and the
//! operator's rerun; also where the reconciliation job is scheduled.

use super::rng::{self, Stream};
use super::{Action, Ctx, World};
use crate::scenario::{Crash, Store};
use crate::trace::{EventKind, Node, RollbackCause};

/// Puts the scenario's timed faults on the queue.
pub(super) fn schedule(world: &mut World) {
    let (crash, replace_db_ms, rerun_ms) = (world.s.crash, world.s.replace_db_ms, world.s.rerun_ms);
    if let Some(Crash::AtMs(ms)) = crash {
        world.at(u64::from(ms) * 1_000, Action::CrashApi);
    }
    if let Some(ms) = replace_db_ms {
        world.at(u64::from(ms) * 1_000, Action::ReplaceDb);
    }
    if let Some(ms) = rerun_ms {
        world.at(u64::from(ms) * 1_000, Action::Rerun);
    }
    if let Some(ms) = world.s.restart_db_ms {
        world.at(u64::from(ms) * 1_000, Action::RestartDb);
    }
    if let Some(ms) = world.s.reconcile_ms {
        world.at(u64::from(ms) * 1_000, Action::Reconcile);
    }
}

impl World {
    /// The API process dies: every open transaction rolls back, every handler is gone, and
    /// memory keys are lost. It comes back `restart_ms` later.
    pub(super) fn crash_api(&mut self) {
        if !self.api.up {
            return;
        }
        self.api.up = false;
        self.api.crashed_once = true;
        self.emit(Node::Api, Ctx::default(), EventKind::Crash);
        let active = std::mem::take(&mut self.api.active);
        for req in active.values() {
            self.reqs[req as usize].handler.live = false;
        }
        for req in active.values() {
            // Past the event cap nothing more is recorded, so the rest would be wasted work.
            if self.trace.truncated {
                return;
            }
            if self.reqs[req as usize].handler.txn.is_some() {
                self.rollback(req, RollbackCause::Crash);
            }
        }
        self.api.gen += 1;
        self.store.drop_locks();
        if self.s.store == Store::Memory {
            self.store.wipe_keys();
        }
        self.at(u64::from(self.s.restart_ms) * 1_000, Action::RestartApi);
    }

    pub(super) fn restart_api(&mut self) {
        self.api.up = true;
        self.emit(Node::Api, Ctx::default(), EventKind::Restart);
    }

    /// A new ledger pod: every open transaction aborts with a 503, and a pod store is wiped.
    pub(super) fn replace_db(&mut self) {
        self.store.db_boot += 1;
        let mut draw = rng::for_decision(
            &self.seeds,
            Stream::ReplaceDb,
            u64::from(self.store.db_boot),
            0,
            0,
        );
        self.store.db_uid = rand::RngCore::next_u32(&mut draw);
        let wiped = self.s.store == Store::Pod;
        let (uid, boot) = (self.store.db_uid, self.store.db_boot);
        self.emit(
            Node::Db,
            Ctx::default(),
            EventKind::Replace { uid, boot, wiped },
        );
        self.abort_db_transactions(RollbackCause::DbReplaced);
        if wiped {
            self.store.wipe_all();
        }
    }

    /// The ledger's container restarts in its pod: a new boot id, the same UID, and the
    /// emptyDir kept, so nothing committed is lost; open transactions abort with a 503.
    pub(super) fn restart_db(&mut self) {
        self.store.db_boot += 1;
        let (uid, boot) = (self.store.db_uid, self.store.db_boot);
        self.emit(Node::Db, Ctx::default(), EventKind::DbRestart { uid, boot });
        self.abort_db_transactions(RollbackCause::DbRestarted);
    }

    /// Every open transaction ends with its database process: it rolls back and its handler
    /// answers 503; every claim's lock goes with it.
    fn abort_db_transactions(&mut self, cause: RollbackCause) {
        let in_txn: Vec<u32> = (self.api.active.values())
            .filter(|&req| self.reqs[req as usize].handler.txn.is_some())
            .collect();
        for req in in_txn {
            if self.trace.truncated {
                return;
            }
            self.rollback(req, cause);
            self.finish_with(req, 503, None, false);
        }
        self.store.drop_locks();
    }

    /// An operator reruns the job: a new pod per client, same orders, same business keys.
    pub(super) fn rerun(&mut self) {
        self.start_pods(true);
    }
}
