// Package graph is the GraphQL layer and the home of promoengine's use
// cases. Resolvers (*.resolvers.go) are one-line calls into the use-case
// files; the REST layer calls the very same resolver methods, so no
// business rule is written twice. Use cases always take the ent client
// from the context (ent.FromContext) so they join the request's
// transaction.
//
// Where to find a domain: the files of one resource share a prefix, and
// rules without database or HTTP live in subpackages.
//
//   - campaign*, categories, category_*: campaigns and their categories
//   - voucher*, vouchers, generate, generation_job: vouchers, codes,
//     imports, bulk updates and generation jobs (pure code shapes in
//     vouchercode/)
//   - publish*, publication*: publications (the one-statement PostgreSQL
//     path in publish_statement.go)
//   - redemption*, validation_rules, validity*, orders, order_*: validation,
//     redemption, rollback and sessions (discounts in discount/, rule
//     checks in validationrule/; the one-statement PostgreSQL path in
//     redemption_statement.go)
//   - customer*, segment*: customers, activities and segments (the filter
//     language in segmentfilter/)
//   - loyalty*, event_earning, events, referral_*: loyalty programs, cards,
//     rewards, earning rules and custom events
//   - transaction*, export*: voucher transactions and their exports
//   - webhook*: the outbox, delivery and webhook configuration
//   - management*, projects, users, branding, metadata_*, appkey*, oauth*, credentials,
//     client_*: projects, keys, OAuth and the management area
//   - graphql_*, server, node, edges, pagination: the GraphQL machinery
//     (limits, cost, lists, persisted queries)
//   - jobs, job_*, async_actions, tx, locks, dialect: jobs, transactions and
//     locks shared by every domain
//   - apperr/: the error shape every use case returns
package graph
