#include "importers/demo/demograph.h"

#include "importers/demo/demomodel.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>

namespace runlens::importers::demo {

namespace {

QByteArray quoted(const QString& text)
{
    QByteArray out = text.toUtf8();
    out.replace('\\', "\\\\");
    out.replace('"', "\\\"");
    return '"' + out + '"';
}

QByteArray shapeText(std::initializer_list<qint64> dims)
{
    QByteArray out;
    for (const qint64 d : dims) {
        if (!out.isEmpty())
            out += 'x';
        out += QByteArray::number(d);
    }
    return out;
}

QByteArray activationShape(const DemoModel::Layer& layer)
{
    if (layer.outSize == 1)
        return shapeText({ DemoModel::kBatch, layer.outChannels });
    return shapeText({ DemoModel::kBatch, layer.outChannels, layer.outSize, layer.outSize });
}

/// A weight as the parameter node of its consumer (octagon, turquoise: the style the reader takes for
/// parameters).
void parameter(QByteArray& out, const QString& name, const QByteArray& shape, const QString& consumer)
{
    // "\n" is dot's line break inside a label, so it must not be escaped.
    out += "    " + quoted(name) + " [shape=octagon, style=filled, fillcolor=turquoise, label="
        + quoted(name).chopped(1) + "\\n" + shape + "\"];\n";
    out += "    " + quoted(name) + " -> " + quoted(consumer) + ";\n";
}

} // namespace

QByteArray DemoGraph::dot()
{
    const std::vector<DemoModel::Layer>& layers = DemoModel::layers();
    QByteArray out;
    out += "digraph resnet_demo {\n";
    out += "    rankdir=TB;\n";
    out += "    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n";
    out += "    edge [fontname=\"Helvetica\", fontsize=8];\n";
    out += "    \"input\" [shape=box, label=\"input\\n"
        + shapeText({ DemoModel::kBatch, DemoModel::kImageChannels, DemoModel::kImageSize, DemoModel::kImageSize })
        + "\"];\n";
    for (const DemoModel::Layer& layer : layers) {
        out += "    " + quoted(layer.node) + " [label=<<table border=\"0\" cellspacing=\"0\"><tr><td><b>"
            + DemoModel::opType(layer.type).toUtf8() + "</b></td></tr><tr><td>" + layer.node.toUtf8()
            + "</td></tr></table>>];\n";
    }
    for (const DemoModel::Layer& layer : layers) {
        for (const int input : layer.inputs) {
            if (input < 0) {
                out += "    \"input\" -> " + quoted(layer.node) + ";\n";
                continue;
            }
            const DemoModel::Layer& producer = layers[std::size_t(input)];
            out += "    " + quoted(producer.node) + " -> " + quoted(layer.node) + " [label=\""
                + activationShape(producer) + "\"];\n";
        }
        // Named like state_dict keys inside the module's scope ("layer1/0/conv1.weight"): a name below the
        // op's own ("layer1/0/conv1/weight") would make the op a scope too.
        QString path = layer.node;
        if (layer.type == DemoModel::Type::Conv) {
            parameter(out, path + QStringLiteral(".weight"),
                      shapeText({ layer.outChannels, layer.inChannels, layer.kernel, layer.kernel }), layer.node);
        } else if (layer.type == DemoModel::Type::Linear) {
            parameter(out, path + QStringLiteral(".weight"), shapeText({ layer.outChannels, layer.inChannels }),
                      layer.node);
            parameter(out, path + QStringLiteral(".bias"), shapeText({ layer.outChannels }), layer.node);
        }
    }
    out += "    \"output\" [shape=box, label=\"output\\n" + shapeText({ DemoModel::kBatch, DemoModel::kClasses })
        + "\"];\n";
    out += "    " + quoted(layers.back().node) + " -> \"output\" [label=\"" + activationShape(layers.back()) + "\"];\n";
    out += "}\n";
    return out;
}

bool DemoGraph::write(const QString& directory, QString* error)
{
    if (!QDir().mkpath(directory)) {
        if (error)
            *error = QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot create the folder %1")
                         .arg(directory);
        return false;
    }
    const QString path = QDir(directory).filePath(QStringLiteral("model.dot"));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(dot()) < 0 || !file.commit()) {
        if (error)
            *error = QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot write %1: %2")
                         .arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace runlens::importers::demo
