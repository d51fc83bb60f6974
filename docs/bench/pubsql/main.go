// Command pubsql prints a pgbench script that runs promoengine's
// single-statement publication (graph.PublishStatement) directly: the same
// SQL, with a random start voucher ID, a new customer and a new publication
// ID per transaction (the statement REST requests run; -full-campaign:
// GraphQL's, which returns every column of the campaign). It measures what PostgreSQL alone can do for a
// publication, without HTTP, JSON or Go. Used by docs/bench/publications.sh:
//
//	pubsql -project proj_… -campaign load > pub.sql
//	pgbench -n -M prepared -c 16 -T 20 -f pub.sql "$URL"
package main

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/promoengine/promoengine/graph/publication"
)

func main() {
	project := flag.String("project", "", "project ID")
	campaign := flag.String("campaign", "", "campaign name or ID")
	full := flag.Bool("full-campaign", false, "the statement returning every column of the campaign (GraphQL's, and REST's before 2026-11-27) instead of REST's")
	flag.Parse()
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	// A random string from the alphabet of IDs, like pulid draws.
	random := func(prefix string, n int) string {
		return fmt.Sprintf("(%s || (SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', "+
			"1 + floor(random() * 62)::int, 1), '') FROM generate_series(1, %d)))", quote(prefix), n)
	}
	args := map[int]string{
		1: quote(*project), 2: quote(*campaign), 3: "now()", 4: random("v_", 8),
		5: random("cust_", 24), 6: random("load-", 24), 7: random("pub_", 32),
		8: "'{}'::jsonb", 9: "'API'", 10: "NULL::text", 11: "false",
		12: "lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000000)::bigint), 14, '0')", // pulid.Ordered's time part
	}
	sql := regexp.MustCompile(`\$(\d+)`).ReplaceAllStringFunc(publication.PublishStatement(1, !*full), func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		return args[n]
	})
	fmt.Println(strings.Join(strings.Fields(sql), " ") + ";")
}
