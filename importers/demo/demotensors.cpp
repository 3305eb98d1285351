#include "importers/demo/demotensors.h"

#include "importers/demo/demomodel.h"
#include "importers/demo/demonoise.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>
#include <QtEndian>

#include <cmath>
#include <vector>

namespace runlens::importers::demo {

namespace {

struct Parameter
{
    QString name; ///< "layer1.0.conv1.weight"
    QList<qint64> shape;
    int fanIn = 1;
    bool bias = false;
};

QList<Parameter> dumpedParameters()
{
    QList<Parameter> out;
    const QStringList modules = DemoModel::dumpedModules();
    for (const DemoModel::Layer& layer : DemoModel::layers()) {
        if (!modules.contains(layer.module))
            continue;
        if (layer.type == DemoModel::Type::Conv) {
            out.append({ layer.module + QStringLiteral(".weight"),
                         { layer.outChannels, layer.inChannels, layer.kernel, layer.kernel },
                         layer.inChannels * layer.kernel * layer.kernel,
                         false });
        } else if (layer.type == DemoModel::Type::Linear) {
            out.append({ layer.module + QStringLiteral(".weight"),
                         { layer.outChannels, layer.inChannels },
                         layer.inChannels,
                         false });
            out.append({ layer.module + QStringLiteral(".bias"), { layer.outChannels }, layer.inChannels, true });
        }
    }
    return out;
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

QList<int> DemoTensors::steps()
{
    return { 0, 500, 999 };
}

QStringList DemoTensors::names()
{
    QStringList out;
    for (const Parameter& p : dumpedParameters())
        out << p.name;
    return out;
}

QByteArray DemoTensors::npy(const QList<qint64>& shape, const std::vector<float>& values)
{
    QByteArray dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (const qint64 d : shape)
        dict += QByteArray::number(d) + (shape.size() == 1 ? "," : ", ");
    if (shape.size() > 1)
        dict.chop(2);
    dict += "), }";
    // numpy pads the header with spaces and a newline so the data starts on a 64-byte boundary.
    constexpr int kPrefix = 10; // magic, version, header length
    const int total = (kPrefix + int(dict.size()) + 1 + 63) / 64 * 64;
    dict += QByteArray(total - kPrefix - int(dict.size()) - 1, ' ');
    dict += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    const quint16 length = qToLittleEndian(quint16(dict.size()));
    out.append(reinterpret_cast<const char*>(&length), 2);
    out += dict;
    const qsizetype start = out.size();
    out.resize(start + qsizetype(values.size() * sizeof(float)));
    qToLittleEndian<float>(values.data(), qsizetype(values.size()), out.data() + start);
    return out;
}

bool DemoTensors::write(const QString& directory, QString* error)
{
    const QList<int> dumpSteps = steps();
    DemoNoise noise(2718);
    for (const Parameter& p : dumpedParameters()) {
        qint64 count = 1;
        for (const qint64 d : p.shape)
            count *= d;
        // Kaiming-normal weights and torch's uniform bias at the first step; each later dump adds a
        // drift that shrinks as the learning rate decays (about 30 % and 12 % of the initial spread).
        const double spread = p.bias ? 1.0 / std::sqrt(double(p.fanIn)) : std::sqrt(2.0 / p.fanIn);
        std::vector<float> values(static_cast<std::size_t>(count));
        for (float& v : values)
            v = float(p.bias ? spread * noise.next() : spread * noise.gaussian());
        for (int s = 0; s < dumpSteps.size(); ++s) {
            if (s > 0) {
                const double drift = s == 1 ? 0.30 : 0.12;
                for (float& v : values)
                    v = float(0.98 * v + drift * spread * noise.gaussian());
            }
            const QString folder = QStringLiteral("step_%1").arg(dumpSteps[s]);
            QDir dir(directory);
            if (!dir.mkpath(folder))
                return fail(
                    error,
                    QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot create the folder %1")
                        .arg(dir.filePath(folder)));
            const QString path = QDir(dir.filePath(folder)).filePath(p.name + QStringLiteral(".npy"));
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write(npy(p.shape, values)) < 0 || !file.commit())
                return fail(error,
                            QCoreApplication::translate("runlens::importers::demo::DemoRun", "cannot write %1: %2")
                                .arg(path, file.errorString()));
        }
    }
    return true;
}

} // namespace runlens::importers::demo
