#!/bin/sh
# Writes control_flow.tflite from control_flow.json with flatc (Debian flatbuffers-compiler) and the reader's
# own schema, which keeps the published schema's field ids and union type values. No public .tflite file
# small enough for the tests has WHILE/IF subgraphs, so this one is written from the published format.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
flatc --binary -o "$out" "$here/../../../../importers/graph/schema/tflite.fbs" "$here/control_flow.json"
mv "$out/control_flow.tflite" "$here/control_flow.tflite"
rmdir "$out"
