/* SPDX-License-Identifier: BSD-3-Clause */
/* cli: the table of subcommands and options (cli.h): the words of --help, the man pages and completion. */
#include <stddef.h>
#include <string.h>

#include "cli.h"

/* An option: OPT(variable, "long-name", code, kind, metavar, choices, help);
 * OPT_FULL also gives its one-letter form (0: none) and whether it may be
 * given more than once. */
#define OPT_FULL(var, sh, rep, nm, c, k, mv, ch, h) \
	static const struct wr_cli_opt var = { \
		.name = nm, .code = c, .kind = k, .metavar = mv, \
		.choices = ch, .help = h, .short_name = sh, .repeat = rep }
#define OPT(var, nm, c, k, mv, ch, h) \
	OPT_FULL(var, 0, false, nm, c, k, mv, ch, h)

/* Shared by several subcommands. */
OPT(o_config, "config", 'c', WR_CLI_PROFILE, "PROFILE", NULL,
    "The port and lcore profile: a file, or a name looked up as NAME or "
    "NAME.yaml in `$WIRERATE_CONFIG_PATH` (default `/etc/wirerate`), then in "
    "the shipped profiles (wirerate-profile(5)).  Default: the profile "
    "`default`, one `net_null` port.  EAL options after `--` are added to "
    "the profile's; without `--config`, EAL options that choose devices or "
    "lcores (`-a`, `-b`, `--vdev`, `--no-pci`, `-l`, `-c`, `--lcores`) "
    "replace the default profile.");
OPT(o_duration, "duration", 'd', WR_CLI_VALUE, "S", NULL,
    "Stop after S seconds (`5`, `2.5`, `500ms`, `1m`).");
OPT(o_count, "count", 'n', WR_CLI_VALUE, "N", NULL,
    "Frames per stream, replacing each stream's `count`.");
OPT(o_seed, "seed", 's', WR_CLI_VALUE, "N", NULL,
    "Seed for random fields and sizes, replacing the file's and the "
    "streams' (an unsigned 64-bit integer).");
OPT(o_drain, "drain", 'D', WR_CLI_VALUE, "S", NULL,
    "After the last frame, how long echoes are still waited for before "
    "loss is counted (default 0.2 s).");
OPT(o_json, "json", 'j', WR_CLI_FILE_OUT, "FILE", NULL,
    "Write the final results as JSON (the schema in README.md).");
OPT(o_csv, "csv", 'C', WR_CLI_FILE_OUT, "FILE", NULL,
    "Write one CSV row per result.");
OPT(o_stream, "stream", 'S', WR_CLI_VALUE, "NAME", NULL,
    "The stream of the file to use (default: the first).");
OPT(o_quiet, "quiet", 'q', WR_CLI_FLAG, NULL, NULL,
    "No banner, no port lines, no live lines, none of EAL's start-up "
    "lines: only the summary.");
OPT(o_burst, "burst", 'b', WR_CLI_VALUE, "N", NULL,
    "Frames per TX burst for every stream, 1..512, replacing the profile's "
    "and the streams' (1: every frame spaced by the pacer).");
OPT(o_sizes, "sizes", 'z', WR_CLI_VALUE, "LIST", NULL,
    "Frame sizes, comma-separated (default "
    "64,128,256,512,1024,1280,1518; up to 9018).");
OPT(o_rx_port, "rx-port", 'r', WR_CLI_VALUE, "N", NULL,
    "The port the frames come back on (its index in the profile).");
OPT(o_tx_port, "tx-port", 't', WR_CLI_VALUE, "N", NULL,
    "The port the frames are sent on (its index in the profile).");
OPT(o_report, "report", 'Q', WR_CLI_FILE_OUT, "OUT.html", NULL,
    "Write one self-contained HTML report (wirerate-report) beside the "
    "JSON (`--json`, else OUT.html.json).");
OPT(o_repeat, "repeat", 'X', WR_CLI_VALUE, "N", NULL,
    "Send the streams N times (1..1000) on ports that stay up, the same "
    "frames each time: a line per repetition, then min / median / max of "
    "Kpps, Mbps L2/L1, goodput (bytes above the UDP/TCP header per second) "
    "and time; every stream must end (a count or a duration, or `--count` "
    "or `--duration`).");

/* run */
OPT(o_stats_jsonl, "stats-jsonl", 'L', WR_CLI_FILE_OUT, "FILE", NULL,
    "Write one JSON line per statistics interval, for dashboards.");
OPT(o_arp, "arp", 'A', WR_CLI_FLAG, NULL, NULL,
    "Every port answers ARP, IPv6 Neighbor Solicitations and ICMP/ICMPv6 "
    "echo for its streams' source addresses.");
OPT(o_hosts_wait, "hosts-wait", WR_CLI_CODE_HOSTS_WAIT, WR_CLI_VALUE, "MS",
    NULL,
    "With `hosts:` in the stream file: how long the streams wait for the "
    "hosts' bring-up (addresses leased, DAD done, gateways resolved), in "
    "milliseconds (default 5000).  Hosts not up by then are counted in "
    "their failures, and the streams start all the same.");
OPT(o_host_lcore, "host-lcore", WR_CLI_CODE_HOST_LCORE, WR_CLI_VALUE, "N",
    NULL,
    "Run the hosts' service (ARP, ND, DHCP... of `hosts:`) polling on lcore "
    "N, one EAL has (the profile's `--lcores`) and no port uses; default: "
    "a control thread beside the main lcore, sleeping when idle.");
OPT(o_link_down, "on-link-down", 'k', WR_CLI_CHOICE, "WHAT", "stop continue",
    "When a port's link goes during the run (a memif peer that exits, a "
    "cable, a removed device): `stop` (default) ends the run, `continue` "
    "keeps the other ports sending.  Either way the summary and the JSON "
    "say when and what had been sent.");
OPT(o_oversub, "oversubscribe", 'o', WR_CLI_FLAG, NULL, NULL,
    "Send streams that ask a port for more than its line rate (refused "
    "otherwise, exit 2).");
OPT(o_hosts_table, "hosts", 'I', WR_CLI_FLAG, NULL, NULL,
    "With `hosts:` in the stream file: print every emulated host at the "
    "end of the run, a line each (index, group, state, MAC, VLANs, IPv4 "
    "and IPv6 addresses, each gateway's MAC, neighbour state and age), "
    "before the hosts' summary (doc/hosts.md).");
OPT_FULL(o_peer, 0, true, "peer", 'e', WR_CLI_VALUE, "SPEC", NULL,
    "With `--repeat`: the peer's own RX/TX frames and bytes over each "
    "repetition beside ours: `telemetry:PREFIX:PORT` (a DPDK process's "
    "telemetry socket, or its path) or `netdev:[NETNS/]IFNAME` (a Linux "
    "interface, in a namespace); up to 8.");
OPT_FULL(o_capture, 0, true, "capture", 'a', WR_CLI_VALUE,
	 "PORT[:rx|tx|both]=FILE", NULL,
	 "Write what port PORT receives (`rx`, the default), sends (`tx`) or "
	 "both to FILE in pcapng: nanosecond timestamps, one interface per port "
	 "with its name, each stream's name on its frames; up to 8.  Frames the "
	 "capture cannot keep are counted as capture dropped, never slowing the "
	 "receive path (doc/rx.md).  The options below apply to the `--capture` "
	 "before them.");
OPT_FULL(o_cap_filter, 0, true, "capture-filter", 'f', WR_CLI_VALUE,
	 "EXPR", NULL,
	 "Only frames matching EXPR, in tcpdump's filter language (compiled by "
	 "libpcap, run as eBPF).");
OPT_FULL(o_cap_count, 0, true, "capture-count", 'g', WR_CLI_VALUE, "N",
	 NULL,
	 "Stop the capture after N frames (of each file, with "
	 "`--capture-files`).");
OPT_FULL(o_cap_size, 0, true, "capture-size", 'i', WR_CLI_VALUE, "BYTES",
	 NULL,
	 "Stop the capture after BYTES (`512MiB`, `10MB`; of each file, with "
	 "`--capture-files`).");
OPT_FULL(o_cap_duration, 0, true, "capture-duration", 'u', WR_CLI_VALUE,
	 "S", NULL,
	 "Stop the capture after S seconds (of each file, with "
	 "`--capture-files`).");
OPT_FULL(o_snaplen, 0, true, "snaplen", 'v', WR_CLI_VALUE, "N", NULL,
	 "Keep the first N bytes of each frame (1..65535).");
OPT_FULL(o_cap_files, 0, true, "capture-files", 'w', WR_CLI_VALUE, "N",
	 NULL,
	 "A ring of N files (FILE-0.pcapng, ...), each up to the limits above, "
	 "the oldest rewritten (1..1000).");

/* A TRex profile (PROFILE.py) in place of the stream file: TRex's console
 * options, handed to the converter (app/trex.c, doc/trex.md). */
OPT_FULL(o_tunable, 't', true, "tunable", WR_CLI_CODE_TUNABLE, WR_CLI_VALUE,
	 "TUNABLE", NULL,
	 "With a TRex profile (PROFILE.py): its tunables as TRex's console "
	 "takes them, `key=value[,key=value]` or argparse words such as "
	 "`\"--size 128\"`.");
OPT_FULL(o_mult, 'm', false, "mult", WR_CLI_CODE_MULT, WR_CLI_VALUE, "MULT",
	 NULL,
	 "With a TRex profile: TRex's multiplier, a factor (`2`) or the port's "
	 "total rate (`10mpps`, `1gbps` (L2), `5gbpsl1`, `50%`).");
OPT(o_src_mac, "src-mac", WR_CLI_CODE_SRC_MAC, WR_CLI_VALUE, "MAC|port", NULL,
    "With a TRex profile: the source MAC of packets that leave it to "
    "TRex's port configuration (default `port`: the port's, from the "
    "profile).");
OPT(o_dst_mac, "dst-mac", WR_CLI_CODE_DST_MAC, WR_CLI_VALUE,
    "MAC|port|arp|nd", NULL,
    "With a TRex profile: the destination MAC likewise (default `port`); "
    "`arp` or `nd`: resolved by ARP or Neighbor Solicitation when a run "
    "starts, as TRex's L3 mode (streams that are stacks).");
OPT(o_fix_csum, "fix-checksums", WR_CLI_CODE_FIX_CSUM, WR_CLI_FLAG, NULL,
    NULL,
    "With a TRex profile: recompute every checksum of every frame, also "
    "those the profile leaves stale.");

/* import-trex (Python: wirerate/trex/__main__.py) */
OPT_FULL(o_t_output, 'o', false, "output", 0, WR_CLI_FILE_OUT, "FILE", NULL,
	 "Write the stream file here (default: standard output).");
OPT_FULL(o_t_port, 'p', false, "port", 0, WR_CLI_VALUE, "N", NULL,
	 "The port the profile is loaded for (its `port_id`; direction = N "
	 "mod 2), and the streams' `port:` (default 0).");
OPT_FULL(o_t_quiet, 'q', false, "quiet", 0, WR_CLI_FLAG, NULL, NULL,
	 "No warnings.");

/* rfc2544 */
OPT(o_trial, "trial", 'T', WR_CLI_VALUE, "S", NULL,
    "Trial length (default 60 s, RFC 2544's minimum).");
OPT(o_resolution, "resolution", 'R', WR_CLI_VALUE, "PCT%|RATE", NULL,
    "When the binary search stops: a share of the line rate (default 0.1%) "
    "or a rate.");
OPT(o_loss_tol, "loss-tolerance", 'l', WR_CLI_VALUE, "PCT", NULL,
    "Loss a trial may have and still pass (default 0).");
OPT(o_pdr, "pdr", 'P', WR_CLI_VALUE, "PCT", NULL,
    "Also search the partial drop rate at this loss, in the same search, "
    "which then runs `--phases` of shorter trials first.");
OPT(o_phases, "phases", 'H', WR_CLI_VALUE, "N", NULL,
    "Search phases with `--pdr` (default 3), from `--first-trial` up to "
    "`--trial`.");
OPT(o_first_trial, "first-trial", 'F', WR_CLI_VALUE, "S", NULL,
    "The first phase's trial length with `--pdr` (default 1 s).");
OPT(o_search, "search", 'y', WR_CLI_CHOICE, "SEARCH", "binary mlr",
    "The throughput search: `binary`, RFC 2544's (default), or `mlr`, "
    "MLRsearch (RFC 9971: NDR and PDR as its goals, trials growing from "
    "`--first-trial` to `--trial` as it narrows; doc/rates.md says when "
    "each fits).");
OPT(o_exceed, "exceed-ratio", 'x', WR_CLI_VALUE, "PCT", NULL,
    "With `--search mlr`: the share of a load's trial time that may lose "
    "more than the tolerance (the Goal Exceed Ratio; default 0).");
OPT(o_dursum, "duration-sum", 'J', WR_CLI_VALUE, "S", NULL,
    "With `--search mlr`: trial time at one load that is enough (the Goal "
    "Duration Sum; default `--trial`).");
OPT(o_max_rate, "max-rate", 'M', WR_CLI_VALUE, "RATE", NULL,
    "The search's ceiling (default the line rate).");
OPT(o_min_rate, "min-rate", 'm', WR_CLI_VALUE, "RATE", NULL,
    "The search's floor (default none).");
OPT(o_tests, "tests", 'E', WR_CLI_VALUE, "LIST", NULL,
    "RFC 2544's tests to run, comma-separated: `throughput` (default), "
    "`latency`, `loss`, `b2b`, or `all`.");
OPT(o_loss_step, "loss-step", 'G', WR_CLI_VALUE, "PCT", NULL,
    "The frame loss rate test's step, down from the maximum (default 10%).");
OPT(o_lat_trials, "latency-trials", 'U', WR_CLI_VALUE, "N", NULL,
    "Latency trials at each size's throughput (default 20).");
OPT(o_lat_trial, "latency-trial", 'V', WR_CLI_VALUE, "S", NULL,
    "Each latency trial's length (default 120 s); every frame is timed.");
OPT(o_rev_stream, "reverse-stream", 'Y', WR_CLI_VALUE, "NAME", NULL,
    "Also send this stream from `--rx-port` to `--tx-port` in every trial "
    "of every test: both directions at once, each one's loss, latency and "
    "back-to-back apart.");
OPT(o_b2b_repeats, "b2b-repeats", 'B', WR_CLI_VALUE, "N", NULL,
    "Back-to-back bursts measured per size (default 50).");
OPT(o_b2b_trial, "b2b-trial", 'K', WR_CLI_VALUE, "S", NULL,
    "The first back-to-back burst, as time at the rate (default 2 s).");
OPT(o_b2b_res, "b2b-resolution", 'W', WR_CLI_VALUE, "N", NULL,
    "The back-to-back search's resolution in frames (default 1).");
OPT(o_pairs, "pairs", 'Z', WR_CLI_VALUE, "A:B,C:D", NULL,
    "Several port pairs, each searched in turn (instead of `--tx-port` and "
    "`--rx-port`).");

/* rtt */
OPT(o_timeout, "timeout", 'O', WR_CLI_VALUE, "S", NULL,
    "How long each round trip is waited for (default 0.1 s).");

/* dump */
OPT(o_pcap, "pcap", 'p', WR_CLI_FILE_OUT, "OUT.pcap", NULL,
    "The capture to write.");

/* ports */
OPT(o_ports_json, "json", 'j', WR_CLI_FLAG, NULL, NULL,
    "Print JSON instead of a table (the driver's limits included).");

/* serve */
OPT(o_socket, "socket", 's', WR_CLI_SOCKET, "PATH", NULL,
    "The Unix socket (default `RUNTIME/wirerate.sock`: the user's runtime "
    "directory, mode 0700; `none`: TCP only).  The socket is mode 0600; an "
    "existing PATH is replaced only when it is a socket no server answers "
    "on.");
OPT(o_listen, "listen", 'l', WR_CLI_VALUE, "[ADDR:]PORT", NULL,
    "Also serve TCP (127.0.0.1 unless an address is given: use another "
    "only on a trusted network) to clients that log in with the token of "
    "`--token-file`.");
OPT(o_token, "token-file", 't', WR_CLI_FILE_IN, "FILE", NULL,
    "The TCP clients' token: a regular file of the server's user, mode "
    "0600, 16 characters or more.");
OPT(o_idle, "idle-timeout", 'i', WR_CLI_VALUE, "S", NULL,
    "Close a connection silent this long in the middle of a request "
    "(default 60 s).");
OPT(o_owner, "owner-timeout", 'o', WR_CLI_VALUE, "S", NULL,
    "Release a vanished owner's ports after this (default 30 s); its "
    "traffic keeps running.");
OPT(o_max_clients, "max-clients", 'm', WR_CLI_VALUE, "N", NULL,
    "Connections at most (default 1024).");
OPT(o_http, "http", 'w', WR_CLI_VALUE, "[ADDR:]PORT", NULL,
    "Also serve the web console (doc/web.md) at http://ADDR:PORT/ "
    "(127.0.0.1 unless an address is given); another address than the "
    "loopback needs a token: `--http-token-file`'s, else `--token-file`'s.");
OPT(o_http_token, "http-token-file", 'W', WR_CLI_FILE_IN, "FILE", NULL,
    "The web console's own token (as `--token-file`'s: mode 0600, 16 "
    "characters or more).");
OPT(o_capture_dir, "capture-dir", 'C', WR_CLI_VALUE, "DIR", NULL,
    "Where capture.start's files go (default a private temporary "
    "directory, removed when the server ends; clients read them with "
    "capture.fetch).");
OPT(o_runs_dir, "runs-dir", WR_CLI_CODE_RUNS_DIR, WR_CLI_VALUE, "DIR", NULL,
    "Where every trial and benchmark job is kept (runs.list, runs.get; "
    "made if missing; default `/var/lib/wirerate/runs` for root, else "
    "`$XDG_STATE_HOME/wirerate/runs` or `~/.local/state/wirerate/runs`).");
OPT(o_runs_max, "runs-max", WR_CLI_CODE_RUNS_MAX, WR_CLI_VALUE, "N", NULL,
    "Runs kept at most (default 500): beyond, the oldest is deleted.");
OPT(o_socket_group, "socket-group", 'G', WR_CLI_VALUE, "GROUP", NULL,
    "The Unix socket's group: mode 0660, so that the group's members "
    "(a lab's users of the service) drive the server; its directory must "
    "let them in (the service's is root:wirerate 0750).");
OPT(o_pcap_dir, "pcap-dir", 'P', WR_CLI_VALUE, "DIR", NULL,
    "The captures clients may replay (pcap: NAME in their stream text, a "
    "relative name inside DIR: no .., no links); without it a client's "
    "pcap: is refused.");

/* serve: the Open Traffic Generator API (doc/otg.md) */
OPT(o_otg, "otg", 'g', WR_CLI_VALUE, "[https://|http://][ADDR:]PORT", NULL,
    "Also serve the OTG API (snappi's) and the web console over HTTPS "
    "(`http://` for plain HTTP; 127.0.0.1 unless an address is given, port "
    "8443 unless one is: `https://` alone is ixia-c's `https://127.0.0.1:8443`).  The server's own user on the "
    "loopback needs nothing; others the token of `--otg-token-file` (else "
    "`--token-file`'s) or a client certificate `--tls-client-ca` signed.");
OPT(o_tls_cert, "tls-cert", 'T', WR_CLI_FILE_IN, "CERT.pem", NULL,
    "The OTG API's certificate (chain), PEM (default: an EC P-256 one made "
    "at each start, its SHA-256 fingerprint logged to pin it).");
OPT(o_tls_key, "tls-key", 'K', WR_CLI_FILE_IN, "KEY.pem", NULL,
    "`--tls-cert`'s private key, PEM.");
OPT(o_tls_client_ca, "tls-client-ca", 'A', WR_CLI_FILE_IN, "CA.pem", NULL,
    "Clients of the OTG API whose certificate this CA signed need no token.");
OPT(o_otg_token, "otg-token-file", 'N', WR_CLI_FILE_IN, "FILE", NULL,
    "The OTG API's own token (as `--token-file`'s: mode 0600, 16 "
    "characters or more): `Authorization: Bearer TOKEN`, or snappi's "
    "`location=\"https://otg:TOKEN@HOST:PORT\"`.");
OPT(o_remote_token, "remote-token-file", 'R', WR_CLI_FILE_IN, "FILE", NULL,
    "The token of the other servers an OTG config's locations name "
    "(HOST:PORT/INDEX) (default: the OTG API's own).");

/* console (Python: wirerate/console.py) */
OPT(o_c_socket, "socket", 0, WR_CLI_SOCKET, "PATH", NULL,
    "The server's Unix socket (default `$WIRERATE_SOCKET`, else the "
    "server's default).");
OPT(o_c_host, "host", 0, WR_CLI_VALUE, "ADDR", NULL,
    "A TCP server (with `--port` and `--token-file`).");
OPT(o_c_port, "port", 0, WR_CLI_VALUE, "PORT", NULL,
    "The TCP server's port (default 4500).");
OPT(o_c_token, "token-file", 0, WR_CLI_FILE_IN, "FILE", NULL,
    "The token for a TCP server.");
OPT(o_c_session, "session", 0, WR_CLI_VALUE, "NAME", NULL,
    "The ownership session to use (keeps the ports over reconnects).");
OPT_FULL(o_c_command, 'c', true, "command", 0, WR_CLI_VALUE, "LINE", NULL,
    "Run this console command and leave.");

#define USE(o) { &(o), NULL }
#define USE_AS(o, h) { &(o), h }
#define END { NULL, NULL }
/* Every command that reads a stream file takes a TRex profile instead. */
#define USE_TREX USE(o_tunable), USE(o_mult), USE(o_src_mac), USE(o_dst_mac), \
	USE(o_fix_csum)

static const struct wr_cli_use run_opts[] = {
	USE(o_config), USE(o_duration), USE(o_count), USE(o_seed),
	USE(o_drain), USE(o_json), USE(o_stats_jsonl), USE(o_arp),
	USE(o_hosts_wait), USE(o_host_lcore),
	USE(o_burst), USE(o_quiet), USE(o_link_down), USE(o_oversub),
	USE(o_repeat), USE(o_peer), USE(o_capture), USE(o_cap_filter),
	USE(o_cap_count), USE(o_cap_size), USE(o_cap_duration), USE(o_snaplen),
	USE(o_cap_files), USE(o_hosts_table),
	USE_TREX,
	END,
};

static const struct wr_cli_use sweep_opts[] = {
	USE(o_config), USE(o_stream), USE(o_sizes),
	USE_AS(o_duration, "How long each size is sent (default 2 s)."),
	USE_AS(o_repeat, "Run each size N times: min / median / max of Kpps, "
	       "Mbps and goodput."),
	USE_AS(o_rx_port, "Count what a reflector returns on this port: "
	       "returned Kpps, Mbps and loss per size."),
	USE(o_csv), USE(o_json), USE(o_report), USE(o_quiet), USE(o_burst),
	USE(o_seed),
	USE_TREX,
	END,
};

static const struct wr_cli_use rfc2544_opts[] = {
	USE(o_config), USE(o_tx_port), USE(o_rx_port), USE(o_pairs),
	USE(o_stream), USE(o_sizes), USE(o_trial), USE(o_resolution),
	USE(o_loss_tol), USE(o_pdr), USE(o_phases), USE(o_first_trial),
	USE(o_search), USE(o_exceed), USE(o_dursum),
	USE(o_max_rate), USE(o_min_rate), USE(o_tests), USE(o_loss_step),
	USE(o_lat_trials), USE(o_lat_trial), USE(o_rev_stream),
	USE(o_b2b_repeats), USE(o_b2b_trial), USE(o_b2b_res), USE(o_drain),
	USE(o_csv), USE(o_json), USE(o_report), USE(o_quiet), USE(o_burst),
	USE(o_seed),
	USE_TREX,
	END,
};

static const struct wr_cli_use rtt_opts[] = {
	USE(o_config),
	USE_AS(o_stream, "The stream of the file to use (default: the first); "
	       "`NAME,NAME,...`: each measured in turn at every size, side by "
	       "side in one table (`raw,udp`: seed 000's study)."),
	USE_AS(o_sizes, "UDP payload sizes FROM:TO:STEP or one SIZE "
	       "(default 50:1500:50, the 24-byte signature included)."),
	USE_AS(o_count, "Round trips per size (default 100000)."),
	USE(o_timeout), USE(o_csv), USE(o_json),
	USE_TREX,
	END,
};

static const struct wr_cli_use check_opts[] = {
	USE(o_seed), USE(o_count),
	USE_TREX,
	END,
};

static const struct wr_cli_use dump_opts[] = {
	USE_AS(o_count, "Frames to write per stream (required)."),
	USE_AS(o_pcap, "The capture to write (required)."),
	USE_AS(o_stream, "Only this stream's frames."),
	USE(o_seed),
	USE_TREX,
	END,
};

static const struct wr_cli_use ports_opts[] = {
	USE(o_ports_json), USE(o_config),
	END,
};

static const struct wr_cli_use serve_opts[] = {
	USE(o_config), USE(o_socket), USE(o_listen), USE(o_token),
	USE(o_idle), USE(o_owner), USE(o_max_clients), USE(o_http),
	USE(o_http_token), USE(o_capture_dir), USE(o_pcap_dir),
	USE(o_socket_group),
	USE(o_runs_dir), USE(o_runs_max),
	USE(o_otg), USE(o_tls_cert), USE(o_tls_key), USE(o_tls_client_ca),
	USE(o_otg_token), USE(o_remote_token),
	END,
};

static const struct wr_cli_use console_opts[] = {
	USE(o_c_socket), USE(o_c_host), USE(o_c_port), USE(o_c_token),
	USE(o_c_session), USE(o_c_command),
	END,
};

static const struct wr_cli_use trex_opts[] = {
	USE(o_tunable), USE(o_t_output),
	USE_AS(o_mult, "TRex's multiplier: a factor (`2`) or the port's total "
	       "rate (`10mpps`, `1gbps` (L2), `5gbpsl1`, `50%`)."),
	USE(o_t_port),
	USE_AS(o_src_mac, "The source MAC of packets that leave it to TRex's "
	       "port configuration (default `port`: the port's, from the "
	       "profile when the stream file runs)."),
	USE_AS(o_dst_mac, "The destination MAC likewise (default `port`); "
	       "`arp` or `nd`: resolved by ARP or Neighbor Solicitation when "
	       "a run starts, as TRex's L3 mode (streams that are stacks)."),
	USE_AS(o_fix_csum, "Recompute every checksum of every frame, also "
	       "those the profile leaves stale."),
	USE(o_t_quiet),
	END,
};

static const struct wr_cli_use no_opts[] = {
	END,
};

const char *const wr_cli_about =
	"wirerate is a DPDK line-rate traffic generator.  It reads a stream "
	"file (YAML, wirerate-streams(5)) describing frames as a stack of "
	"protocol layers, how their fields vary per packet, their sizes and "
	"counts; builds each frame once as a template; and sends at the "
	"maximum rate a port takes or at a set rate, printing Kpps and Mbps at "
	"L2 and L1 per port and per stream every second.  It replays "
	"captures, runs RFC 2544's four tests with an HTML report, times round "
	"trips, and serves a JSON-RPC API with a Python client and console.  "
	"Same file and seed, same bytes.\n\n"
	"A profile (wirerate-profile(5)) says how EAL starts and which ports "
	"the streams' `port:` numbers mean.  All input is validated before "
	"EAL starts; bad input is one line on stderr naming the file, line, "
	"column and key, and nothing starts.";

const char *const wr_cli_exit_status =
	"0 success (also after Ctrl-C, SIGTERM or SIGHUP: the run stops, drains and "
	"prints its summary); 1 a run-time failure (EAL, memory, a link that "
	"stays down); 2 bad input (an option, a stream file, a profile, a port "
	"that does not exist): one line on stderr, nothing started; 3 (`sweep`, "
	"`rfc2544`) the benchmark ran but the generator, not the device, was "
	"the limit of at least one result.";

const char *const wr_cli_environment =
	"WIRERATE_CONFIG_PATH\tColon-separated directories where `--config "
	"NAME` is looked for before the shipped profiles (default "
	"`/etc/wirerate`).\n"
	"WIRERATE_RUNTIME_DIR\tThe user's runtime directory (default "
	"`/run/wirerate` for root, `$XDG_RUNTIME_DIR/wirerate` for others, "
	"else `/tmp/wirerate-UID`), mode 0700: the server's socket and memif "
	"sockets.\n"
	"WIRERATE_SOCKET\tThe server's socket for `console` and the Python "
	"client.\n"
	"WIRERATE_PYTHON\tThe Python interpreter that `console`, "
	"`import-trex` and a TRex profile given to any subcommand run "
	"(default `/usr/bin/python3` when it exists, which has Debian's "
	"python3-scapy, else `python3` on PATH).";

const struct wr_cli_cmd wr_cli_cmds[] = {
	{
		.name = "run",
		.summary = "send the streams of a stream file",
		.synopsis = "STREAMFILE [OPTIONS] [-- EAL-OPTIONS]",
		.description =
		"Send the streams of STREAMFILE on the profile's ports, print "
		"Kpps and Mbps (L2 and L1) per port and per stream every "
		"second, and a summary.  Each run gets its own EAL file prefix "
		"(`wirerate-UID-PID`) unless the profile or the EAL options "
		"give one.",
		.pos = WR_CLI_POS_STREAMS,
		.eal = true,
		.opts = run_opts,
		.examples =
		"wirerate run streams/udp-64.yaml --duration 5\n"
		"wirerate run streams/udp-64.yaml --config pcap --count 1000\n"
		"wirerate run streams/my.yaml -- -l 0-2 -a 0000:3b:00.0",
		.see_also = "README.md doc/vary.md doc/rates.md doc/repeat.md",
	},
	{
		.name = "sweep",
		.summary = "the maximum rate per frame size",
		.synopsis = "STREAMFILE [OPTIONS] [-- EAL-OPTIONS]",
		.description =
		"Send one stream (the first, or `--stream`) at the maximum rate "
		"for each frame size for `--duration` each, and print Kpps, "
		"Mbps L1/L2 and the share of the line rate; with `--rx-port`, "
		"what a reflector returns.",
		.pos = WR_CLI_POS_STREAMS,
		.eal = true,
		.opts = sweep_opts,
		.examples =
		"wirerate sweep streams/udp-64.yaml --csv sweep.csv\n"
		"wirerate sweep streams/echo-jumbo.yaml --config memif-jumbo "
		"--rx-port 0 --sizes 1024,2048,4096,8192,9018",
		.see_also = "doc/rates.md doc/echo.md",
	},
	{
		.name = "rfc2544",
		.summary = "RFC 2544 throughput, latency, frame loss and back-to-back",
		.synopsis = "STREAMFILE (--tx-port N --rx-port N | --pairs A:B,...) "
			    "[OPTIONS] [-- EAL-OPTIONS]",
		.description =
		"Per frame size, a binary search for the highest rate at which "
		"every frame (carrying a loss-only signature) sent on "
		"`--tx-port` comes back on `--rx-port`; `--pdr` adds the "
		"partial drop rate to the same search; `--tests` adds RFC "
		"2544's latency, frame loss rate and back-to-back tests; "
		"`--search mlr` finds NDR and PDR by MLRsearch (RFC 9971) "
		"instead of the binary search (doc/rates.md says when each "
		"fits).  `wirerate serve` runs the same as a job (bench.start).",
		.pos = WR_CLI_POS_STREAMS,
		.eal = true,
		.opts = rfc2544_opts,
		.examples =
		"wirerate rfc2544 streams/udp-64.yaml --config 2ports "
		"--tx-port 0 --rx-port 1\n"
		"wirerate rfc2544 streams/udp-64.yaml --config 2ports "
		"--tx-port 0 --rx-port 1 --tests all --pdr 0.5% --report dut.html",
		.see_also = "doc/rates.md",
	},
	{
		.name = "rtt",
		.summary = "round trips one frame at a time, per payload size",
		.synopsis = "STREAMFILE [OPTIONS] [-- EAL-OPTIONS]",
		.description =
		"Per UDP payload size, `--count` round trips of the stream's "
		"frame, each waited for up to `--timeout`: min, avg, p50, p99, "
		"max RTT and lost per size.",
		.pos = WR_CLI_POS_STREAMS,
		.eal = true,
		.opts = rtt_opts,
		.examples =
		"wirerate rtt streams/latency.yaml --config memif --csv rtt.csv",
		.see_also = "doc/echo.md",
	},
	{
		.name = "check",
		.summary = "validate a stream file and say what each stream sends",
		.synopsis = "STREAMFILE [OPTIONS]",
		.description =
		"Validate STREAMFILE and print what each stream sends, and "
		"each tcp class in words: its clients and server, how it opens "
		"connections, the HTTP exchange or the program step by step, "
		"its TCP options.  No EAL, no hugepages.",
		.pos = WR_CLI_POS_STREAMS,
		.opts = check_opts,
		.examples = "wirerate check streams/imix.yaml",
		.see_also = "wirerate-streams(5)",
	},
	{
		.name = "dump",
		.summary = "write the frames of a stream file to a pcap",
		.synopsis = "STREAMFILE --count N --pcap OUT.pcap [OPTIONS]",
		.description =
		"Write the first N frames of each stream (or of `--stream`) to "
		"a pcap file, with the data path's frame code; print what each "
		"side of each tcp class sends (its SYN or SYN-ACK and options, "
		"its request or response head, a program's sends).  A file of "
		"tcp classes alone needs neither --count nor --pcap; with them, "
		"the pcap holds the first N frames of one connection of its "
		"first class (or `--stream` NAME's), wirerate's client and "
		"server engines back to back.  No EAL, no hugepages.",
		.pos = WR_CLI_POS_STREAMS,
		.opts = dump_opts,
		.examples =
		"wirerate dump streams/flows-vary.yaml --count 100 --pcap "
		"first100.pcap",
		.see_also = "wirerate-streams(5)",
	},
	{
		.name = "ports",
		.summary = "list the DPDK ports EAL finds",
		.synopsis = "[--json] [--config PROFILE] [DEVICE...] [-- EAL-OPTIONS]",
		.description =
		"List every port EAL probes (or the DEVICEs named): driver, "
		"MAC, link, NUMA node, queues and the offloads wirerate uses.",
		.pos = WR_CLI_POS_DEVICES,
		.eal = true,
		.opts = ports_opts,
		.examples = "wirerate ports --json\n"
			    "wirerate ports -- --vdev=net_null0",
		.see_also = "doc/ports.md",
	},
	{
		.name = "serve",
		.summary = "EAL and ports up once; a JSON-RPC 2.0 API for scripts",
		.synopsis = "[OPTIONS] [-- EAL-OPTIONS]",
		.description =
		"Start EAL and the profile's ports once and serve the JSON-RPC "
		"2.0 API on a Unix socket and, with `--listen`, on TCP: load "
		"streams, start trials, change rates while traffic runs, read "
		"statistics.  SIGTERM (or SIGINT, SIGHUP) stops it cleanly: traffic stopped, ports "
		"closed, the socket removed.",
		.pos = WR_CLI_POS_NONE,
		.eal = true,
		.opts = serve_opts,
		.examples = "wirerate serve --config default\n"
			    "wirerate serve --listen 4500 --token-file "
			    "/etc/wirerate/token",
		.see_also = "doc/api.md",
	},
	{
		.name = "console",
		.summary = "interactive console on a running server",
		.synopsis = "[OPTIONS]",
		.description =
		"The interactive console of the Python client (python3 -m "
		"wirerate, under `$WIRERATE_PYTHON`, else /usr/bin/python3) on "
		"a running `wirerate serve`.",
		.pos = WR_CLI_POS_NONE,
		.opts = console_opts,
		.examples = "wirerate console\n"
			    "wirerate console -c info -c stats",
		.exit_status = "0 the console ended; 1 it could not connect.",
		.see_also = "doc/api.md",
	},
	{
		.name = "import-trex",
		.summary = "write a TRex stateless profile as a stream file",
		.synopsis = "PROFILE.py [OPTIONS]",
		.description =
		"Load a TRex stateless profile (a Python file whose "
		"`register()` returns an object with `get_streams()`) through "
		"a TRex-compatible API, without TRex, and write its streams as "
		"a stream file: a stream that is a stack where wirerate's "
		"stack builds its packet, else its bytes with TRex's field "
		"engine program.  `run`, `check`, `dump`, `sweep`, `rfc2544` "
		"and `rtt` also take PROFILE.py in place of a stream file, "
		"with `-t`, `-m`, `--src-mac`, `--dst-mac` and "
		"`--fix-checksums`.  Needs Scapy (python3-scapy); no EAL.",
		.pos = WR_CLI_POS_TREX,
		.opts = trex_opts,
		.examples =
		"wirerate import-trex udp_range.py -t size=128 -o udp_range.yaml\n"
		"wirerate run udp_range.py -t size=128 -m 10mpps --duration 10",
		.see_also = "doc/trex.md",
	},
	{
		.name = "version",
		.summary = "print the version (also --version)",
		.synopsis = "",
		.description = "Print wirerate's version.",
		.pos = WR_CLI_POS_NONE,
		.opts = no_opts,
		.examples = "wirerate --version",
		.exit_status = "0.",
	},
	{ .name = NULL },
};

const struct wr_cli_cmd *
wr_cli_find(const char *name)
{
	const struct wr_cli_cmd *c;

	for (c = wr_cli_cmds; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
