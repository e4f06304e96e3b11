// Package protocol is the wire between the coordinator and a kernel process:
// typed control messages plus a compact columnar encoding for tables, framed
// on the kernel's stdin and stdout. It also holds Serve, the kernel side's
// loop, so any executor (the yaegi interpreter today, a natively compiled
// worker later) speaks exactly the same protocol.
//
// It imports only the standard library and blocks/sdk: the native worker is
// built offline from nothing but this source, the SDK and the Go toolchain.
//
// A frame is
//
//	uint32 total length | uint32 header length | header (JSON Message) | tables
//
// where the header says how many tables follow (Message.Tables). Tables use
// the binary layout in table_codec.go: JSON for the few control fields that
// change shape, binary for the bulk that must move fast. When the two sides
// share table files (ServeOptions.SharedDir, Writer.ShareTables), large
// tables are written into the writer's mapped file instead and the header's
// Message.Shared says where (shared_tables.go); nothing follows the header.
package protocol
