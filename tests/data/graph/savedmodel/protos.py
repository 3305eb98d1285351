"""Compiles RunLens's own TensorFlow protos (importers/graph/proto) with protoc into a temporary folder and
imports them, so the oracle and the generator read SavedModels with google.protobuf, not with RunLens."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


def load():
    out = tempfile.mkdtemp()
    subprocess.check_call(["protoc", "--python_out=" + out, "-I", os.path.join(ROOT, "importers"),
                           "summary/proto/tb_tensor.proto", "graph/proto/tf_graph.proto",
                           "graph/proto/tf_saved_model.proto"], cwd=os.path.join(ROOT, "importers"))
    sys.path.insert(0, out)
    from graph.proto import tf_saved_model_pb2, tf_graph_pb2  # noqa: E402
    return tf_saved_model_pb2, tf_graph_pb2
