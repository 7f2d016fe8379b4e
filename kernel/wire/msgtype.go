// Package wire owns the Jupyter messaging protocol's representation on the
// wire: message types, headers, HMAC signatures and the multipart frame codec.
// It uses the standard library only and knows nothing about sockets.
package wire

// MsgType names a Jupyter message type, the header's msg_type field.
type MsgType string

// ProtocolVersion is the messaging protocol version the kernel speaks.
const ProtocolVersion = "5.3"

// Requests and replies on the shell and control channels.
const (
	KernelInfoRequest MsgType = "kernel_info_request"
	KernelInfoReply   MsgType = "kernel_info_reply"
	ExecuteRequest    MsgType = "execute_request"
	ExecuteReply      MsgType = "execute_reply"
	CompleteRequest   MsgType = "complete_request"
	CompleteReply     MsgType = "complete_reply"
	InspectRequest    MsgType = "inspect_request"
	InspectReply      MsgType = "inspect_reply"
	IsCompleteRequest MsgType = "is_complete_request"
	IsCompleteReply   MsgType = "is_complete_reply"
	HistoryRequest    MsgType = "history_request"
	HistoryReply      MsgType = "history_reply"
	CommInfoRequest   MsgType = "comm_info_request"
	CommInfoReply     MsgType = "comm_info_reply"
	InterruptRequest  MsgType = "interrupt_request"
	InterruptReply    MsgType = "interrupt_reply"
	ShutdownRequest   MsgType = "shutdown_request"
	ShutdownReply     MsgType = "shutdown_reply"
)

// Broadcasts on the iopub channel.
const (
	Status            MsgType = "status"
	ExecuteInput      MsgType = "execute_input"
	ExecuteResult     MsgType = "execute_result"
	Stream            MsgType = "stream"
	DisplayData       MsgType = "display_data"
	UpdateDisplayData MsgType = "update_display_data"
	ClearOutput       MsgType = "clear_output"
	Error             MsgType = "error"
)

// Comm messages, which either side may send (package kernel/comm).
const (
	CommOpen  MsgType = "comm_open"
	CommMsg   MsgType = "comm_msg"
	CommClose MsgType = "comm_close"
)

// Reply returns the reply type of a request type, "foo_request" ->
// "foo_reply", and false when t is not a request.
func (t MsgType) Reply() (MsgType, bool) {
	const req, rep = "_request", "_reply"
	s := string(t)
	if len(s) <= len(req) || s[len(s)-len(req):] != req {
		return "", false
	}
	return MsgType(s[:len(s)-len(req)] + rep), true
}
