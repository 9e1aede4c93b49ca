# SPDX-License-Identifier: BSD-3-Clause
"""Tests for devtools/wr-check-layout on tiny fake trees."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest
import importlib.machinery
import importlib.util

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "devtools", "wr-check-layout")


def load():
    loader = importlib.machinery.SourceFileLoader("wr_check_layout", SCRIPT)
    spec = importlib.util.spec_from_loader("wr_check_layout", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


layout = load()

# A clean house: app on dp on core, wire under model, each .c with its .h.
CLEAN = {
    "lib/core/wire/wr_wire.h": "#include <stdint.h>\n",
    "lib/core/model/wr_stream.h": '#include "wr_wire.h"\nint wr_stream_new(void);\n',
    "lib/core/model/wr_stream.c": '#include "wr_stream.h"\nint\nwr_stream_new(void)\n{\n\treturn 0;\n}\n',
    "lib/dp/wr_tx.h": '#include "wr_stream.h"\nint wr_tx_run(void);\n',
    "lib/dp/wr_tx.c": ('#include <rte_mbuf.h>\n#include "wr_tx.h"\nint\nwr_tx_run(void)\n{\n'
                       '\treturn wr_stream_new();\n}\n'),
    "app/main.c": '#include "wr_tx.h"\nint\nmain(void)\n{\n\treturn wr_tx_run();\n}\n',
}


def body(n):
    return "int\nbig(void)\n{\n" + "\tn++;\n" * (n - 4) + "}\n"


class CheckLayoutTest(unittest.TestCase):

    def tree(self, files):
        root = tempfile.mkdtemp(prefix="wr-check-layout-")
        self.addCleanup(shutil.rmtree, root)
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        return root

    def run_on(self, files, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = layout.main(["--root", self.tree(files), *args])
        return rc, out.getvalue().splitlines()

    def test_clean_passes(self):
        rc, lines = self.run_on(CLEAN)
        self.assertEqual((rc, lines), (0, []))

    def test_list(self):
        rc, lines = self.run_on(CLEAN, "--list")
        self.assertEqual(rc, 0)
        self.assertEqual(lines, ["app -> lib/dp (1)", "lib/core/model -> lib/core/wire (1)",
                                 "lib/dp -> lib/core/model (1)"])

    def test_up_arrow_between_floors(self):
        files = dict(CLEAN)
        files["lib/core/model/wr_stream.c"] = '#include "wr_tx.h"\n' + files["lib/core/model/wr_stream.c"]
        rc, lines = self.run_on(files)
        self.assertEqual(rc, 1)
        self.assertIn("lib/core/model/wr_stream.c:1: lib/core/model -> lib/dp: points up (wr_tx.h)",
                      lines)

    def test_up_arrow_between_core_concerns(self):
        files = dict(CLEAN)
        files["lib/core/wire/wr_wire.h"] += '#include "wr_stream.h"\n'
        rc, lines = self.run_on(files)
        self.assertEqual(rc, 1)
        self.assertIn("lib/core/wire/wr_wire.h:2: lib/core/wire -> lib/core/model: points up"
                      " (wr_stream.h)", lines)

    def test_sideways_and_a_private_header(self):
        # Within lib/ctl any way; wire and wire/proto are one concern; a
        # .c, its .h and its _priv.h are one unit.
        files = dict(CLEAN)
        files["lib/ctl/server/wr_server.c"] = '#include "wr_server_priv.h"\n#include "wr_bench.h"\n'
        files["lib/ctl/server/wr_server_priv.h"] = '#include "wr_server.h"\n'
        files["lib/ctl/server/wr_server.h"] = '#include "wr_tx.h"\n'
        files["lib/ctl/bench/wr_bench.h"] = '#include "wr_telemetry.h"\n'
        files["lib/ctl/wr_telemetry.h"] = "int wr_telemetry_init(void);\n"
        files["lib/core/wire/wr_proto.h"] = '#include "wr_protos.def"\n'
        files["lib/core/wire/proto/wr_protos.def"] = "WR_PROTO(udp)\n"
        files["lib/core/wire/proto/wr_proto_udp.c"] = '#include "wr_wire.h"\n'
        self.assertEqual(self.run_on(files), (0, []))

    def test_folder_on_no_floor(self):
        files = dict(CLEAN)
        files["lib/core/misc/wr_misc.h"] = "int wr_misc(void);\n"
        files["lib/core/model/wr_stream.c"] = '#include "wr_misc.h"\n'
        rc, lines = self.run_on(files)
        self.assertEqual((rc, lines), (1, ["lib/core/model/wr_stream.c:1: lib/core/model -> "
                                           "lib/core/misc: lib/core/misc is on no floor "
                                           "(FLOORS, CORE)"]))

    def test_circle(self):
        files = dict(CLEAN)
        files["lib/dp/wr_rx.h"] = "int wr_rx_poll(void);\n"
        files["lib/dp/wr_rx.c"] = '#include "wr_tx.h"\n'
        files["lib/dp/wr_tx.c"] = '#include "wr_rx.h"\n'
        rc, lines = self.run_on(files)
        self.assertEqual(rc, 1)
        self.assertEqual(lines, ["lib/dp/wr_rx.c:1: wr_rx -> wr_tx -> wr_rx: include circle"])

    def test_circle_through_a_shared_header(self):
        # Siblings that call each other back through one header: no include
        # circle between files, a circle all the same.
        files = dict(CLEAN)
        files["app/app.h"] = "int one(void);\nint two(void);\n"
        files["app/one.c"] = '#include "app.h"\nint\none(void)\n{\n\treturn two();\n}\n'
        files["app/two.c"] = '#include "app.h"\nint\ntwo(void)\n{\n\treturn one();\n}\n'
        rc, lines = self.run_on(files)
        self.assertEqual((rc, lines), (1, ["app/one.c:1: one -> two -> one: include circle"]))
        files["app/two.c"] = '#include "app.h"\nint\ntwo(void)\n{\n\treturn 2; /* not one() */\n}\n'
        self.assertEqual(self.run_on(files), (0, []))

    def test_siblings_of_a_shared_private_header(self):
        # A module split into siblings that share its state (x_priv.h): the
        # loop calls down into the others; none calls it back.
        files = dict(CLEAN)
        files["lib/ctl/server/wr_srv.h"] = "int wr_srv_run(void);\n"
        files["lib/ctl/server/wr_srv_priv.h"] = ('#include "wr_srv.h"\n'
                                                 "int wr_srv_io(void);\nint wr_srv_loop_turn(void);\n")
        files["lib/ctl/server/wr_srv.c"] = ('#include "wr_srv_priv.h"\nint\nwr_srv_run(void)\n{\n'
                                            "\treturn wr_srv_io();\n}\n"
                                            "int\nwr_srv_loop_turn(void)\n{\n\treturn 0;\n}\n")
        files["lib/ctl/server/wr_srv_io.c"] = ('#include "wr_srv_priv.h"\nint\nwr_srv_io(void)\n{\n'
                                               "\treturn 1;\n}\n")
        self.assertEqual(self.run_on(files), (0, []))
        files["lib/ctl/server/wr_srv_io.c"] = ('#include "wr_srv_priv.h"\nint\nwr_srv_io(void)\n{\n'
                                               "\treturn wr_srv_loop_turn();\n}\n")
        rc, lines = self.run_on(files)
        self.assertEqual(rc, 1)
        self.assertEqual(lines, ["lib/ctl/server/wr_srv.c:1: wr_srv -> wr_srv_io -> wr_srv: include circle"])

    def test_dpdk_in_core(self):
        files = dict(CLEAN)
        files["lib/core/model/wr_stream.h"] += "#include <rte_ether.h>\n"
        rc, lines = self.run_on(files)
        self.assertEqual((rc, lines), (1, ["lib/core/model/wr_stream.h:3: lib/core/model -> "
                                           "rte_ether.h: DPDK header in lib/core (no EAL there)"]))

    def test_long_function_and_its_marker(self):
        files = dict(CLEAN)
        files["lib/dp/wr_big.c"] = body(151)
        rc, lines = self.run_on(files)
        self.assertEqual(rc, 1)
        self.assertEqual(len(lines), 1)
        self.assertTrue(lines[0].startswith("lib/dp/wr_big.c:1: big() of 151 lines: over 150"))
        files["lib/dp/wr_big.c"] = body(150)
        self.assertEqual(self.run_on(files), (0, []))
        files["lib/dp/wr_big.c"] = f"/* {layout.MARKER}: 1.2 Mpps */\n" + body(151)
        self.assertEqual(self.run_on(files), (0, []))

    def test_long_file(self):
        files = dict(CLEAN)
        files["lib/core/model/wr_stream.h"] += "\n" * 1199
        rc, lines = self.run_on(files)
        self.assertEqual((rc, lines), (1, ["lib/core/model/wr_stream.h:1201: file of 1201 lines:"
                                           " over 1200"]))


if __name__ == "__main__":
    unittest.main()
