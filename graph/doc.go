// Package graph is the GraphQL layer. Resolvers (*.resolvers.go) are
// one-line calls into the use cases of the domain packages below it; the
// REST layer calls the very same resolver methods, so no business rule is
// written twice. Use cases always take the ent client from the context
// (store.Client) so they join the request's transaction.
//
// Where to find a domain (docs/architecture.md, "Which package owns what"):
//
//   - campaign/: campaigns, categories, vouchers (codes, generation,
//     imports, bulk updates), the voucher ledger and validity windows
//   - customer/: customers, segments, activities
//   - publication/: publications (the one-statement PostgreSQL path in
//     publish_statement.go)
//   - loyalty/: loyalty programs, cards, rewards, earning rules, referrals
//     and custom events
//   - redemption/: validation, redemption, rollback, sessions, orders,
//     validation and stacking rules (the one-statement PostgreSQL path in
//     graph/redemption/statement.go)
//   - metadata/: metadata and custom event schemas
//   - export/: exports of voucher transactions
//   - access/: projects, keys, OAuth, users, brandings and the management
//     API over every domain
//   - webhook/: the outbox, delivery and webhook configuration
//   - job/: the durable job runner; wiring.go registers each domain's jobs
//   - internal/: machinery shared by the domains (store: client,
//     transactions, locks; page, clock, fields, observe, shape)
//   - apperr/, discount/, validationrule/, segmentfilter/, vouchercode/,
//     origin/, targetaddr/: pure logic without database or HTTP
//
// This package itself holds only the GraphQL layer: the resolvers, the
// generated executor, and the transport (graphql_*, server.go: limits,
// cost, depth, persisted queries, list marshalling, metrics; node.go and
// edges.go: Relay node and edge glue).
//
// Domains import downwards only, in the order of
// graph/internal/layering.Layers, which a test enforces.
package graph
