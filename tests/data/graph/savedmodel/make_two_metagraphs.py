"""Writes two_metagraphs/saved_model.pb: the real half_plus_two_tf1 SavedModel with a second meta graph,
tagged "train", put before the "serve" one, so the reader must pick "serve" by its tag and keep "train" as a
subgraph. The "train" graph is the serve graph's first six nodes with a single signature. Run with
/usr/bin/python3 (google.protobuf); protoc compiles RunLens's own protos."""
import os

import protos

saved_model_pb2, _ = protos.load()
HERE = os.path.dirname(os.path.abspath(__file__))

model = saved_model_pb2.SavedModel()
with open(os.path.join(HERE, "half_plus_two_tf1", "saved_model.pb"), "rb") as f:
    model.ParseFromString(f.read())
serve = model.meta_graphs[0]
train = saved_model_pb2.MetaGraphDef()
train.CopyFrom(serve)
del train.meta_info_def.tags[:]
train.meta_info_def.tags.append("train")
del train.graph_def.node[6:]
keep = sorted(train.signature_def.keys())[0]
for name in list(train.signature_def.keys()):
    if name != keep:
        del train.signature_def[name]
out = saved_model_pb2.SavedModel(saved_model_schema_version=model.saved_model_schema_version)
out.meta_graphs.add().CopyFrom(train)
out.meta_graphs.add().CopyFrom(serve)
os.makedirs(os.path.join(HERE, "two_metagraphs"), exist_ok=True)
with open(os.path.join(HERE, "two_metagraphs", "saved_model.pb"), "wb") as f:
    f.write(out.SerializeToString())
