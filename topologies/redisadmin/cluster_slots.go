package redisadmin

import (
	"context"
	"fmt"
	"strings"
)

// ClusterSlots is how many hash slots a Redis Cluster divides its keys into.
const ClusterSlots = 16384

// KeySlot is the hash slot Redis puts key in, computed here as CLUSTER KEYSLOT answers:
// CRC16 (XMODEM) of the key, or of its hash tag (what a first '{' and the next '}'
// enclose, when not empty), modulo ClusterSlots.
func KeySlot(key string) int {
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if end := strings.IndexByte(key[open+1:], '}'); end > 0 {
			key = key[open+1 : open+1+end]
		}
	}
	return int(crc16(key)) % ClusterSlots
}

// crc16 is CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// SlotMasters reads once, from the node at addr (CLUSTER SLOTS), which master serves
// each slot, and answers for any slot from that reading: the address, or false where
// no master serves it.
func SlotMasters(ctx context.Context, addr string) (func(slot int) (string, bool), error) {
	c := AdminClient(addr)
	defer c.Close()
	ranges, err := c.ClusterSlots(ctx).Result()
	if err != nil {
		return nil, fmt.Errorf("CLUSTER SLOTS on %s: %w", addr, err)
	}
	return func(slot int) (string, bool) {
		for _, r := range ranges {
			if int(r.Start) <= slot && slot <= int(r.End) && len(r.Nodes) > 0 {
				return r.Nodes[0].Addr, true
			}
		}
		return "", false
	}, nil
}
