// Package tiersnapshot holds each server process's snapshot of a
// project's active promotion tiers of active campaigns, with what the
// evaluation reads of them (the tier and its campaign, the rules assigned
// to both, parsed once, and the category). A snapshot holds while the
// project's qualification_version is the one it was built at; the cache
// of snapshots is bounded by TierSnapshotLimits. Qualifications read their
// tiers from it (CurrentTierSnapshot) and the core of graph/redemption
// takes a tier, its rules and category from it; it imports no part of
// that core.
package tiersnapshot
