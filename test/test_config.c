/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the profile loader (wr_config): shipped profiles, limits, error fixtures. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "wr_config.h"
#include "wr_test.h"
#include "wr_test_fixture.h"

/* The shipped profiles sit next to streams/ in the source tree. */
#define WR_CONFIGS WR_STREAMS "/../config"

static int
load(const char *dir, const char *name, struct wr_config *cfg,
     struct wr_error *e)
{
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = wr_config_load(path, cfg, e);
	if (rc != 0)
		wr_test_print_error(e);
	return rc;
}

/* Profiles are loaded from files only: write @p text to a temporary one. */
static int
load_text(const char *text, struct wr_config *cfg, struct wr_error *e)
{
	char path[] = "/tmp/wr-test-config-XXXXXX";
	int fd, rc;
	ssize_t n;

	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	if (n != (ssize_t)strlen(text)) {
		unlink(path);
		return -EIO;
	}
	rc = wr_config_load(path, cfg, e);
	unlink(path);
	return rc;
}

static void
test_every_shipped_profile_loads(void)
{
	struct wr_config cfg;
	struct wr_error e;
	struct dirent *d;
	unsigned int n = 0;
	DIR *dir;

	dir = opendir(WR_CONFIGS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	while ((d = readdir(dir)) != NULL) {
		if (!wr_test_is_yaml(d->d_name))
			continue;
		CU_ASSERT_EQUAL(load(WR_CONFIGS, d->d_name, &cfg, &e), 0);
		CU_ASSERT(cfg.n_eal_args > 0);
		CU_ASSERT(cfg.n_ports > 0);
		wr_config_free(&cfg);
		n++;
	}
	closedir(dir);
	CU_ASSERT(n >= 5);
}

static void
test_default_profile(void)
{
	static const char *const eal[] = {
		"--no-pci", "--in-memory", "--vdev=net_null0",
		"--lcores=0@0,1@1",
	};
	struct wr_config cfg;
	struct wr_error e;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(load(WR_CONFIGS, "default.yaml", &cfg, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(cfg.path, "default.yaml"));
	/* No --file-prefix: each run gets its own (wr_runtime.h). */
	CU_ASSERT_EQUAL_FATAL(cfg.n_eal_args, 4);
	for (i = 0; i < 4; i++)
		CU_ASSERT_STRING_EQUAL(cfg.eal_args[i], eal[i]);
	CU_ASSERT_EQUAL_FATAL(cfg.n_ports, 1);
	CU_ASSERT_STRING_EQUAL(cfg.ports[0].device, "net_null0");
	CU_ASSERT_EQUAL(cfg.ports[0].n_tx_lcores, 1);
	CU_ASSERT_EQUAL(cfg.ports[0].tx_lcores[0], 1);
	CU_ASSERT_EQUAL(cfg.ports[0].n_rx_lcores, 0);
	CU_ASSERT_FALSE(cfg.ports[0].no_rx);
	CU_ASSERT_FALSE(cfg.ports[0].no_tx);
	CU_ASSERT_EQUAL(cfg.ports[0].txd, 0);
	CU_ASSERT_EQUAL(cfg.ports[0].rxd, 0);
	CU_ASSERT_EQUAL(cfg.burst, 64);
	CU_ASSERT_EQUAL(cfg.stats_interval_ms, 1000);
	CU_ASSERT_EQUAL(cfg.link_wait_ms, 5000);
	CU_ASSERT_EQUAL(cfg.settle_ms, 0);
	CU_ASSERT_EQUAL(cfg.max_frame, 0);
	wr_config_free(&cfg);
	CU_ASSERT_EQUAL(cfg.n_eal_args, 0);
	wr_config_free(&cfg); /* twice is harmless */
	wr_config_free(NULL);
}

static void
test_other_profiles(void)
{
	struct wr_config cfg;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load(WR_CONFIGS, "memif.yaml", &cfg, &e), 0);
	CU_ASSERT_STRING_EQUAL(cfg.ports[0].device, "net_memif0");
	CU_ASSERT_EQUAL(cfg.ports[0].n_rx_lcores, 1);
	CU_ASSERT_EQUAL(cfg.ports[0].rx_lcores[0], 1);
	CU_ASSERT_EQUAL(cfg.ports[0].tx_lcores[0], 1);
	/* The socket: the runtime directory's (wr_runtime.h). */
	CU_ASSERT_STRING_EQUAL(cfg.eal_args[2], "--vdev=net_memif0,role=server,"
			       "rsize=14");
	CU_ASSERT_EQUAL(cfg.settle_ms, 200);
	wr_config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(WR_CONFIGS, "pcap.yaml", &cfg, &e), 0);
	CU_ASSERT_STRING_EQUAL(cfg.ports[0].device, "net_pcap0");
	CU_ASSERT_STRING_EQUAL(cfg.eal_args[2],
			       "--vdev=net_pcap0,tx_pcap=wirerate-tx.pcap");
	wr_config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(WR_CONFIGS, "af_packet.yaml", &cfg, &e), 0);
	CU_ASSERT_STRING_EQUAL(cfg.ports[0].device, "net_af_packet0");
	CU_ASSERT_STRING_EQUAL(cfg.eal_args[2],
			       "--vdev=net_af_packet0,iface=veth0");
	wr_config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(WR_CONFIGS, "nic-example.yaml", &cfg, &e), 0);
	CU_ASSERT_STRING_EQUAL(cfg.ports[0].device, "0000:3b:00.0");
	CU_ASSERT_EQUAL(cfg.ports[0].n_tx_lcores, 2);
	CU_ASSERT_EQUAL(cfg.ports[0].tx_lcores[1], 2);
	CU_ASSERT_EQUAL(cfg.ports[0].txd, 2048);
	CU_ASSERT_EQUAL(cfg.ports[0].rxd, 1024);
	CU_ASSERT_EQUAL(cfg.link_wait_ms, 10000);
	CU_ASSERT_STRING_EQUAL(cfg.eal_args[0], "-a");
	CU_ASSERT_STRING_EQUAL(cfg.eal_args[1], "0000:3b:00.0");
	wr_config_free(&cfg);
}

static void
test_minimal_and_limits(void)
{
	struct wr_config cfg;
	struct wr_error e;

	/* Everything but the version is optional. */
	CU_ASSERT_EQUAL_FATAL(load_text("version: 1\n", &cfg, &e), 0);
	CU_ASSERT_EQUAL(cfg.n_eal_args, 0);
	CU_ASSERT_EQUAL(cfg.n_ports, 0);
	CU_ASSERT_EQUAL(cfg.burst, 64);
	wr_config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load_text(
		"version: 1\n"
		"eal: []\n"
		"ports:\n"
		"  - {device: a, txd: 64, rxd: 4096, rx_lcore: 0}\n"
		"  - {device: b, tx_lcores: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,"
		" 13, 14, 15, 1023]}\n"
		"burst: 512\n"
		"stats_interval_ms: 60000\n"
		"link_wait_ms: 0\n"
		"settle_ms: 60000\n"
		"max_frame: 9018\n", &cfg, &e), 0);
	CU_ASSERT_EQUAL(cfg.n_ports, 2);
	CU_ASSERT_EQUAL(cfg.ports[0].txd, 64);
	CU_ASSERT_EQUAL(cfg.ports[0].rxd, 4096);
	CU_ASSERT_EQUAL(cfg.ports[0].n_rx_lcores, 1);
	CU_ASSERT_EQUAL(cfg.ports[0].rx_lcores[0], 0);
	CU_ASSERT_EQUAL(cfg.ports[0].n_tx_lcores, 0);
	CU_ASSERT_EQUAL(cfg.ports[1].n_tx_lcores, 16);
	CU_ASSERT_EQUAL(cfg.ports[1].tx_lcores[15], 1023);
	CU_ASSERT_EQUAL(cfg.ports[1].n_rx_lcores, 0);
	CU_ASSERT_EQUAL(cfg.burst, 512);
	CU_ASSERT_EQUAL(cfg.stats_interval_ms, 60000);
	CU_ASSERT_EQUAL(cfg.link_wait_ms, 0);
	CU_ASSERT_EQUAL(cfg.settle_ms, 60000);
	CU_ASSERT_EQUAL(cfg.max_frame, 9018);
	wr_config_free(&cfg);

	/* One past each limit. */
	CU_ASSERT_EQUAL(load_text("version: 1\nburst: 0\n", &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "burst");
	CU_ASSERT_EQUAL(load_text("version: 1\nlink_wait_ms: 60001\n", &cfg, &e),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "link_wait_ms");
	CU_ASSERT_EQUAL(load_text("version: 1\nsettle_ms: 60001\n", &cfg, &e),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "settle_ms");
	CU_ASSERT_EQUAL(load_text("version: 1\nmax_frame: 9019\n", &cfg, &e),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "max_frame");
	CU_ASSERT_EQUAL(load_text("version: 1\nmax_frame: 63\n", &cfg, &e),
			-EINVAL);
	CU_ASSERT_EQUAL(load_text("version: 1\nports: [{device: a, rxd: 8192}]\n",
				  &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "ports[0].rxd");
	CU_ASSERT_EQUAL(load_text("version: 1\nports: [{device: a, txd: 32}]\n",
				  &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "ports[0].txd");
	CU_ASSERT_EQUAL(load_text("version: 1\nports: [{device: a, rx_lcore: 1024}]\n",
				  &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "ports[0].rx_lcore");
	CU_ASSERT_EQUAL(load_text("version: 1\nports: [{device: a, tx_lcores: [], "
				  "rx_lcores: []}]\n", &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "ports[0]");
	CU_ASSERT_EQUAL(load_text("version: 1\nports: [{device: a, rx_lcores: [1], "
				  "rx_lcore: 1}]\n", &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "ports[0].rx_lcore");
	CU_ASSERT_EQUAL(load_text("version: 1\nports: [{device: a, rx_lcores: [1, 1]}]\n",
				  &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "ports[0].rx_lcores[1]");
	CU_ASSERT_EQUAL(load_text("version: 1\nrx_classes: [{name: a, filter: \"udp and\"}]\n",
				  &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "rx_classes[0].filter");
	CU_ASSERT_EQUAL(load_text("version: 1\nrx_classes: [{name: foreign, filter: arp}]\n",
				  &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "rx_classes[0].name");
	CU_ASSERT_EQUAL(load_text("version: 1\neal: [\"\"]\n", &cfg, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "eal[0]");
}

static void
test_unreadable(void)
{
	struct wr_config cfg, init;
	struct wr_error e;

	wr_config_init(&init);
	memset(&cfg, 0x5a, sizeof(cfg));
	CU_ASSERT_EQUAL(wr_config_load(WR_FIXTURES "/no-such-profile.yaml", &cfg,
				       &e), -ENOENT);
	CU_ASSERT_EQUAL(e.line, 0);
	CU_ASSERT_STRING_EQUAL(e.file, WR_FIXTURES "/no-such-profile.yaml");
	CU_ASSERT_EQUAL(memcmp(&cfg, &init, sizeof(cfg)), 0);
}

static const struct wr_bad_case bad_cases[] = {
	{ "bad-config-burst.yaml", 2, 8, "burst",
	  "expected an integer in 1..512, got \"513\"" },
	{ "bad-config-desc.yaml", 4, 10, "ports[0].txd",
	  "expected a power of two in 64..4096, got \"1000\"" },
	{ "bad-config-dup-device.yaml", 5, 13, "ports[2].device",
	  "duplicate device \"net_null0\" (first at line 3)" },
	{ "bad-config-dup-lcore.yaml", 4, 23, "ports[0].tx_lcores[2]",
	  "duplicate lcore 1" },
	{ "bad-config-eal-type.yaml", 2, 6, "eal",
	  "expected a list of EAL arguments, got \"--no-pci --in-memory\"" },
	{ "bad-config-no-device.yaml", 3, 5, "ports[0]",
	  "missing required key \"device\"" },
	{ "bad-config-ports-empty.yaml", 2, 8, "ports",
	  "expected 1 to 32 ports" },
	{ "bad-config-stats-interval.yaml", 2, 20, "stats_interval_ms",
	  "expected an integer in 100..60000, got \"10\"" },
	{ "bad-config-syntax.yaml", 3, 1, "", "invalid YAML" },
	{ "bad-config-unknown-key.yaml", 5, 5, "ports[0].tx_lcore",
	  "unknown key \"tx_lcore\"; expected one of: device, tx_lcores, "
	  "rx_lcores, rx_lcore, txd, rxd" },
	{ "bad-config-version.yaml", 1, 10, "version",
	  "expected version 1 (the only version this wirerate reads), got \"3\"" },
};

static void
test_bad_fixtures(void)
{
	struct wr_config cfg, init;
	const struct wr_bad_case *c;
	struct wr_error e;
	char path[512];
	size_t i;
	int rc;

	wr_config_init(&init);
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		c = &bad_cases[i];
		snprintf(path, sizeof(path), "%s/%s", WR_FIXTURES, c->file);
		memset(&cfg, 0x5a, sizeof(cfg));
		rc = wr_config_load(path, &cfg, &e);
		wr_test_check_error(c, path, rc, &e);
		/* Left as wr_config_init() made it: nothing to free. */
		CU_ASSERT_EQUAL(memcmp(&cfg, &init, sizeof(cfg)), 0);
	}
}

static void
test_every_fixture_listed(void)
{
	wr_test_every_fixture_listed(WR_FIXTURES, "bad-config-", NULL, bad_cases,
				     sizeof(bad_cases) / sizeof(bad_cases[0]));
}

static void
test_eal_replaces_profile(void)
{
	static char *logs[] = { "--log-level=debug", "-m", "1024" };
	static char *pci[] = { "-l", "0-2", "-a", "0000:3b:00.0" };
	static char *vdev[] = { "--vdev=net_null1" };
	static char *glued[] = { "--log-level", "8", "-a0000:3b:00.0" };
	static char *lcores[] = { "--lcores=0@0,1@1" };
	static char *nopci[] = { "--no-pci" };
	static char *lookalike[] = { "--allow-nothing-here", "-m", "64" };

	CU_ASSERT_FALSE(wr_config_eal_replaces_profile(NULL, 0));
	CU_ASSERT_FALSE(wr_config_eal_replaces_profile(logs, 3));
	CU_ASSERT_TRUE(wr_config_eal_replaces_profile(pci, 4));
	CU_ASSERT_TRUE(wr_config_eal_replaces_profile(vdev, 1));
	CU_ASSERT_TRUE(wr_config_eal_replaces_profile(glued, 3));
	CU_ASSERT_TRUE(wr_config_eal_replaces_profile(lcores, 1));
	CU_ASSERT_TRUE(wr_config_eal_replaces_profile(nopci, 1));
	CU_ASSERT_FALSE(wr_config_eal_replaces_profile(lookalike, 3));
}

static void
test_eal_without_hugepages(void)
{
	static char *prof[] = { "--no-pci", "--in-memory", "--file-prefix=x",
				"--vdev=net_null0" };
	static char *nohuge[] = { "--no-huge", "-m", "256" };
	static char *nic[] = { "-a", "0000:3b:00.0", "-l", "0-2" };
	char *out[16];
	int n;

	n = wr_config_eal_without_hugepages(prof, 4, out, 16);
	CU_ASSERT_EQUAL_FATAL(n, 7);
	CU_ASSERT_STRING_EQUAL(out[0], "--no-pci");
	CU_ASSERT_STRING_EQUAL(out[1], "--no-huge");
	CU_ASSERT_STRING_EQUAL(out[2], "-m");
	CU_ASSERT_STRING_EQUAL(out[3], "512");
	CU_ASSERT_STRING_EQUAL(out[4], "--no-shconf");
	CU_ASSERT_STRING_EQUAL(out[5], "--file-prefix=x");
	CU_ASSERT_STRING_EQUAL(out[6], "--vdev=net_null0");
	/* Nothing to change: already without, or a NIC that needs them. */
	CU_ASSERT_EQUAL(wr_config_eal_without_hugepages(nohuge, 3, out, 16), -1);
	CU_ASSERT_EQUAL(wr_config_eal_without_hugepages(nic, 4, out, 16), -1);
	/* Too small an output. */
	CU_ASSERT_EQUAL(wr_config_eal_without_hugepages(prof, 4, out, 5), -1);
}

static CU_TestInfo config_tests[] = {
	{ "eal_without_hugepages", test_eal_without_hugepages },
	{ "every_shipped_profile_loads", test_every_shipped_profile_loads },
	{ "default_profile", test_default_profile },
	{ "other_profiles", test_other_profiles },
	{ "minimal_and_limits", test_minimal_and_limits },
	{ "unreadable", test_unreadable },
	{ "bad_fixtures", test_bad_fixtures },
	{ "every_fixture_listed", test_every_fixture_listed },
	{ "eal_replaces_profile", test_eal_replaces_profile },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "config", .pTests = config_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}
