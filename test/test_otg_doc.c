/* SPDX-License-Identifier: BSD-3-Clause */
/* test_otg_doc: doc/otg.md's table of what is refused, row by row, against what the plan refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "wr_otg.h"
#include "wr_otg_priv.h"
#include "wr_test.h"

#ifndef WR_DOC
#define WR_DOC "doc"
#endif

/*
 * A config the plan takes as it is (asserted first): two ports, a layer1, a
 * device with an IPv4 address, a flow between the ports.  Each refused row
 * of the doc is put into a copy of it, after wr_otg_check() filled its
 * defaults, so that what refuses it is the plan (the check would refuse a
 * member of the wrong type at the same path, proving nothing).
 */
static const char base_config[] =
	"{\"ports\": [{\"name\": \"p0\", \"location\": \"0\"},"
	"            {\"name\": \"p1\", \"location\": \"1\"}],"
	" \"layer1\": [{\"name\": \"l0\", \"port_names\": [\"p0\", \"p1\"],"
	"              \"mtu\": 1500}],"
	" \"devices\": [{\"name\": \"d0\", \"ethernets\": [{\"name\": \"d0e\","
	"     \"connection\": {\"choice\": \"port_name\", \"port_name\": \"p0\"},"
	"     \"mac\": \"02:00:00:00:00:01\","
	"     \"ipv4_addresses\": [{\"name\": \"d0v4\", \"address\": \"10.0.0.1\","
	"         \"gateway\": \"10.0.0.2\", \"prefix\": 24}]}]}],"
	" \"flows\": [{\"name\": \"f0\","
	"     \"tx_rx\": {\"choice\": \"port\","
	"                \"port\": {\"tx_name\": \"p0\", \"rx_names\": [\"p1\"]}},"
	"     \"size\": {\"choice\": \"fixed\", \"fixed\": 128},"
	"     \"rate\": {\"choice\": \"pps\", \"pps\": \"1000\"},"
	"     \"duration\": {\"choice\": \"fixed_packets\","
	"                    \"fixed_packets\": {\"packets\": 10}},"
	"     \"packet\": ["
	"       {\"choice\": \"ethernet\", \"ethernet\": {"
	"          \"src\": {\"choice\": \"value\", \"value\": \"02:00:00:00:00:01\"},"
	"          \"dst\": {\"choice\": \"value\", \"value\": \"02:00:00:00:00:02\"}}},"
	"       {\"choice\": \"ipv4\", \"ipv4\": {"
	"          \"src\": {\"choice\": \"value\", \"value\": \"10.0.0.1\"},"
	"          \"dst\": {\"choice\": \"value\", \"value\": \"10.0.1.1\"}}},"
	"       {\"choice\": \"udp\", \"udp\": {"
	"          \"src_port\": {\"choice\": \"value\", \"value\": 1024},"
	"          \"dst_port\": {\"choice\": \"value\", \"value\": 5000}}}]}]}";

/* The model's type of each refused member (facts of openapi.yaml v1.61.0),
 * for the value put in: a member the doc lists and this table does not is a
 * failure, so a new row is added here too. */
static const struct {
	const char *member;
	const char *value;            /* JSON */
} member_values[] = {
	{ "lags", "[{\"name\": \"lag0\"}]" },
	{ "lldp", "[{\"name\": \"lldp0\"}]" },
	{ "events", "{\"cp_events\": {\"enable\": true}}" },
	{ "options", "{\"port_options\": {\"location_preemption\": true}}" },
	{ "stateful_flows", "{\"rocev2\": []}" },
	{ "egress_only_tracking", "[{\"port_name\": \"p1\"}]" },
	{ "media", "\"copper\"" },
	{ "ieee_media_defaults", "true" },
	{ "auto_negotiate", "true" },
	{ "auto_negotiation", "{\"rs_fec\": true}" },
	{ "flow_control", "{\"choice\": \"ieee_802_3x\"}" },
	{ "ipv4_loopbacks", "[{\"name\": \"lo4\", \"eth_name\": \"d0e\"}]" },
	{ "ipv6_loopbacks", "[{\"name\": \"lo6\", \"eth_name\": \"d0e\"}]" },
	{ "dhcpv4_interfaces", "[{\"name\": \"dh4\"}]" },
	{ "dhcpv6_interfaces", "[{\"name\": \"dh6\"}]" },
	{ "egress_packet", "[{\"choice\": \"ethernet\", \"ethernet\": {}}]" },
	/* Device protocols: an object each. */
	{ "bgp", "{\"router_id\": \"10.0.0.1\"}" },
	{ "isis", "{\"name\": \"isis0\"}" },
	{ "ospfv2", "{\"name\": \"ospf0\"}" },
	{ "ospfv3", "{\"instances\": []}" },
	{ "rsvp", "{\"name\": \"rsvp0\"}" },
	{ "vxlan", "{\"v4_tunnels\": []}" },
	{ "dhcp_server", "{\"ipv4_interfaces\": []}" },
	{ "macsec", "{\"ethernet_interfaces\": []}" },
	{ "rocev2", "{\"ipv4_interfaces\": []}" },
	{ "bmp", "{\"ipv4_servers\": []}" },
};

static const char *
member_value(const char *member)
{
	size_t i;

	for (i = 0; i < sizeof(member_values) / sizeof(member_values[0]); i++)
		if (strcmp(member_values[i].member, member) == 0)
			return member_values[i].value;
	return NULL;
}

static void
env_init(struct wr_otg_env *env)
{
	unsigned int i;

	memset(env, 0, sizeof(*env));
	env->n_ports = 2;
	for (i = 0; i < 2; i++) {
		struct wr_otg_port_env *pe = &env->ports[i];

		snprintf(pe->device, sizeof(pe->device), "net_memif%u", i);
		pe->mac[0] = 0x02;
		pe->mac[5] = (uint8_t)(0x10 + i);
		pe->speed_mbps = 10000;
		pe->mtu = 1500;
		pe->mtu_max = 9000;
		pe->promisc_ok = true;
		pe->tx_ok = pe->rx_ok = true;
	}
}

/* The first column of each row between the doc's markers: "lags",
 * "devices[].bgp", ... (@n of them, malloc'd, in @out). */
static unsigned int
doc_refused(char out[][128], unsigned int max)
{
	char line[1024];
	unsigned int n = 0;
	bool in = false;
	FILE *fp = fopen(WR_DOC "/otg.md", "r");

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		char *a, *b;

		if (strstr(line, "<!-- otg-refused: begin") != NULL) {
			in = true;
			continue;
		}
		if (strstr(line, "<!-- otg-refused: end") != NULL)
			break;
		if (!in || strncmp(line, "| `", 3) != 0)
			continue;
		a = line + 3;
		b = strchr(a, '`');
		if (b == NULL || (size_t)(b - a) >= 128 || n == max)
			continue;
		memcpy(out[n], a, (size_t)(b - a));
		out[n][b - a] = '\0';
		n++;
	}
	fclose(fp);
	return n;
}

/* Put @row ("devices[].ethernets[].dhcpv4_interfaces") into @cfg, every
 * "[]" index 0 but that of flows[].packet[], where the header is appended as
 * a new element whose choice it is; the concrete path goes to @path.
 * @return 0 a member, 1 a header, -1 a row this test cannot put in. */
static int
inject(json_t *cfg, const char *row, char *path, size_t path_len)
{
	char buf[128], *tok, *dot;
	json_t *cur = cfg, *val;
	size_t used = 0;

	snprintf(buf, sizeof(buf), "%.127s", row);
	tok = buf;
	while ((dot = strchr(tok, '.')) != NULL) {
		size_t l;
		bool arr;
		json_t *next;

		*dot = '\0';
		l = strlen(tok);
		arr = l > 2 && strcmp(tok + l - 2, "[]") == 0;
		if (arr)
			tok[l - 2] = '\0';
		next = json_object_get(cur, tok);
		if (next == NULL)
			return -1;
		if (arr && strcmp(tok, "packet") == 0) {
			const char *hdr = dot + 1;
			size_t i = json_array_size(next);

			val = json_pack("{s:s, s:{}}", "choice", hdr, hdr);
			if (val == NULL || json_array_append_new(next, val))
				return -1;
			snprintf(path + used, path_len - used, "%spacket[%zu]",
				 used ? "." : "", i);
			return 1;
		}
		used += (size_t)snprintf(path + used, path_len - used, "%s%s%s",
					 used ? "." : "", tok, arr ? "[0]" : "");
		cur = arr ? json_array_get(next, 0) : next;
		if (cur == NULL)
			return -1;
		tok = dot + 1;
	}
	snprintf(path + used, path_len - used, "%s%s", used ? "." : "", tok);
	if (member_value(tok) == NULL)
		return -1;
	val = json_loads(member_value(tok), JSON_DECODE_ANY, NULL);
	if (val == NULL || json_object_set_new(cur, tok, val))
		return -1;
	return 0;
}

/* Whether an error of @err is at @path or under it. */
static bool
refused_at(const struct wr_otg_err *err, const char *path, bool header,
	   const char *hdr)
{
	size_t i, l = strlen(path);
	char full[320];

	snprintf(full, sizeof(full), "%.159s.%.127s", path, hdr ? hdr : "");
	for (i = 0; i < json_array_size(err->errors); i++) {
		const char *s = json_string_value(json_array_get(err->errors, i));

		if (s == NULL || strncmp(s, path, l) != 0)
			continue;
		if (!header && (s[l] == ':' || s[l] == '.' || s[l] == '['))
			return true;
		/* a header: its element, its choice or the header itself */
		if (header && (s[l] == ':' ||
			       strncmp(s + l, ".choice", 7) == 0 ||
			       strncmp(s, full, strlen(full)) == 0))
			return true;
	}
	return false;
}

static json_t *
checked_base(void)
{
	struct wr_otg_err err;
	json_t *cfg = json_loads(base_config, 0, NULL);
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	rc = wr_otg_check(cfg, "Config", &err);
	if (rc != 0) {
		char *t = json_dumps(err.errors, 0);

		fprintf(stderr, "base config: %s\n", t);
		free(t);
	}
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	wr_otg_err_free(&err);
	return cfg;
}

/* The base config plans: whatever a row's copy is refused for is the row. */
static void
test_base_plans(void)
{
	struct wr_otg_env env;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *cfg = checked_base();
	int rc;

	env_init(&env);
	memset(&p, 0, sizeof(p));
	wr_otg_err_init(&err);
	rc = wr_otg_plan_build(cfg, &env, &p, &err);
	if (rc != 0) {
		char *t = json_dumps(err.errors, 0);

		fprintf(stderr, "base config refused: %s\n", t);
		free(t);
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(p.n_ports, 2);
	CU_ASSERT_EQUAL(p.n_flows, 1);
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
	json_decref(cfg);
}

/* Every row of the doc's refused table is refused at its path. */
static void
test_doc_rows_refused(void)
{
	static char rows[128][128];
	unsigned int n = doc_refused(rows, 128), i, bad = 0;
	struct wr_otg_env env;
	json_t *base = checked_base();

	/* The table as written today has 36 rows: a parse that finds none
	 * would pass everything. */
	CU_ASSERT(n >= 30);
	env_init(&env);
	for (i = 0; i < n; i++) {
		struct wr_otg_plan p;
		struct wr_otg_err err;
		json_t *cfg = json_deep_copy(base);
		char path[160];
		const char *hdr = strrchr(rows[i], '.');
		int kind, rc;

		hdr = hdr ? hdr + 1 : rows[i];
		kind = inject(cfg, rows[i], path, sizeof(path));
		if (kind < 0) {
			fprintf(stderr, "doc/otg.md row `%s`: cannot put it "
				"into a config (a member test_otg_doc.c does "
				"not know)\n", rows[i]);
			bad++;
			json_decref(cfg);
			continue;
		}
		memset(&p, 0, sizeof(p));
		wr_otg_err_init(&err);
		rc = wr_otg_plan_build(cfg, &env, &p, &err);
		if (rc == 0 || !refused_at(&err, path, kind == 1, hdr)) {
			char *t = json_dumps(err.errors, 0);

			fprintf(stderr, "doc/otg.md row `%s` (%s): %s\n",
				rows[i], path, rc == 0 ? "planned, not refused"
				: t);
			free(t);
			bad++;
		}
		if (rc == 0)
			wr_otg_plan_free(&p);
		wr_otg_err_free(&err);
		json_decref(cfg);
	}
	CU_ASSERT_EQUAL(bad, 0);
	json_decref(base);
}

/* The model's headers (Flow.Header's members but its choice, v1.61.0). */
static const char *const model_headers[] = {
	"custom", "ethernet", "vlan", "vxlan", "ipv4", "ipv6", "pfcpause",
	"ethernetpause", "tcp", "udp", "gre", "gtpv1", "gtpv2", "arp", "icmp",
	"icmpv6", "ppp", "igmpv1", "mpls", "snmpv2c", "rsvp", "macsec", "lacp",
	"ipv6_extension_header", "cfm",
};

/* The code's table of refused headers and the doc's rows
 * `flows[].packet[].X` are the same set: a header the code learns or drops
 * shows here until the doc says so too. */
static void
test_doc_headers_are_code_table(void)
{
	static char rows[128][128];
	unsigned int n = doc_refused(rows, 128), i, j, bad = 0, refused = 0;
	const char *pre = "flows[].packet[].";

	for (i = 0; i < sizeof(model_headers) / sizeof(model_headers[0]); i++) {
		const char *h = model_headers[i];
		const char *why = wr_otg_hdr_refused(h);
		bool in_doc = false;

		for (j = 0; j < n; j++)
			if (strncmp(rows[j], pre, strlen(pre)) == 0 &&
			    strcmp(rows[j] + strlen(pre), h) == 0)
				in_doc = true;
		refused += why != NULL;
		if ((why != NULL) != in_doc) {
			fprintf(stderr, "header %s: the code %s (%s), "
				"doc/otg.md's refused table %s\n", h,
				why ? "refuses it" : "takes it", why ? why : "",
				in_doc ? "lists it" : "does not");
			bad++;
		}
	}
	/* And no doc row names a header the model does not have. */
	for (j = 0; j < n; j++) {
		bool known = false;

		if (strncmp(rows[j], pre, strlen(pre)) != 0)
			continue;
		for (i = 0; i < sizeof(model_headers) / sizeof(model_headers[0]); i++)
			known |= strcmp(rows[j] + strlen(pre), model_headers[i]) == 0;
		if (!known) {
			fprintf(stderr, "doc/otg.md row `%s`: not a header of "
				"the model\n", rows[j]);
			bad++;
		}
	}
	CU_ASSERT(refused >= 10);
	CU_ASSERT_EQUAL(bad, 0);
}

static CU_TestInfo otg_doc_tests[] = {
	{ "base_plans", test_base_plans },
	{ "doc_rows_refused", test_doc_rows_refused },
	{ "doc_headers_are_code_table", test_doc_headers_are_code_table },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "otg_doc", .pTests = otg_doc_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
