package terminal

// Shape is what Run makes of a command's output, for output that did not
// come through this terminal (a command an editor ran for the agent):
// escape sequences removed, progress lines collapsed, the middle left out
// when long, binary output detected. It fills the output fields of a
// Result; the caller fills how the command ended.
func Shape(raw []byte) Result {
	c := newCapture()
	c.write(raw)
	c.finish()
	out := c.result()
	return Result{
		Output:       out.text,
		Binary:       out.binary,
		BinarySample: out.binaryVisible,
		TotalBytes:   out.totalBytes,
		TotalLines:   out.totalLines,
		OmittedBytes: out.omittedBytes,
		OmittedLines: out.omittedLines,
	}
}
