"""Front ends: framework graphs -> the ge dialect (ONNX first)."""
