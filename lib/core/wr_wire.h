/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_wire: what the wire fixes: Ethernet frame bounds and framing overhead. */
#ifndef WR_WIRE_H
#define WR_WIRE_H

/**
 * @file
 * Frame sizes are Ethernet frame sizes *including* the 4-byte FCS, as in
 * RFC 2544 and Ostinato: 64..9018.  The bytes handed to a NIC are size - 4
 * (the NIC appends the FCS).  Constants only; any thread.
 */

#define WR_FCS_LEN 4
/** IEEE 802.3: preamble 7 + SFD 1 + minimum inter-frame gap 12 bytes. */
#define WR_L1_OVERHEAD 20
#define WR_FRAME_MIN 64   /**< smallest Ethernet frame, FCS included */
#define WR_FRAME_MAX 9018 /**< jumbo frame as in RFC 2544 / Ostinato, FCS included */

#endif /* WR_WIRE_H */
