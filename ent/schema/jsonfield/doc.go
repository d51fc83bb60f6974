// Package jsonfield holds the value types stored in JSON columns (a
// campaign's voucher profile, code configuration, validity rules). The same
// structs are the GraphQL object and input types (bound in gqlgen.yml) and
// the REST JSON shapes, so one definition serves every transport.
package jsonfield
