#include "importers/graph/paddleparams.h"

#include "importers/graph/graphresult.h"
#include "importers/graph/graphtext.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/graph/proto/paddle_framework.pb.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>

#include <cstring>
#include <unordered_map>

namespace runlens::importers::graph {

namespace {

struct ParamsTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::importers::graph::PaddleParams)
};

constexpr std::uint64_t kMaxLodLevels = 16; ///< Paddle's LoD has a handful of levels at most
constexpr std::int32_t kMaxDescBytes = 4096; ///< a TensorDesc is a type and a few dimensions
constexpr int kMaxRank = 64;

/// Reads the file sequentially from 0, refusing to read or skip past its end.
class Cursor
{
public:
    explicit Cursor(QIODevice& device)
        : m_device(device)
        , m_size(device.size())
    {
        m_ok = device.seek(0);
    }
    std::int64_t position() const { return m_position; }
    std::int64_t left() const { return m_size - m_position; }
    bool read(void* out, std::int64_t n)
    {
        if (!m_ok || n < 0 || n > left() || m_device.read(static_cast<char*>(out), n) != n)
            return m_ok = false;
        m_position += n;
        return true;
    }
    bool skip(std::int64_t n)
    {
        if (!m_ok || n < 0 || n > left() || !m_device.seek(m_position + n))
            return m_ok = false;
        m_position += n;
        return true;
    }
    template<typename T> bool value(T& out)
    {
        unsigned char bytes[sizeof(T)];
        if (!read(bytes, sizeof(T)))
            return false;
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i)
            v |= std::uint64_t(bytes[i]) << (8 * i); // little-endian, as Paddle writes on x86 and ARM
        std::memcpy(&out, &v, sizeof(T));
        return true;
    }

private:
    QIODevice& m_device;
    std::int64_t m_size;
    std::int64_t m_position = 0;
    bool m_ok = true;
};

} // namespace

int paddleTypeSize(int type)
{
    switch (type) {
    case 0: // BOOL
    case 20: // UINT8
    case 21: // INT8
        return 1;
    case 1: // INT16
    case 4: // FP16
    case 22: // BF16
        return 2;
    case 2: // INT32
    case 5: // FP32
        return 4;
    case 3: // INT64
    case 6: // FP64
    case 19: // SIZE_T
    case 23: // COMPLEX64
        return 8;
    case 24: // COMPLEX128
        return 16;
    default:
        return 0;
    }
}

PaddleParamsIndex indexPaddleParams(QIODevice& device, const std::vector<std::string>& names)
{
    PaddleParamsIndex index;
    Cursor in(device);
    auto fail = [&](std::int64_t at, const QString& what) {
        index.problem = what;
        index.stoppedAt = at;
        return index;
    };
    for (const std::string& name : names) {
        const std::int64_t start = in.position();
        const QString who = QString::fromStdString(name);
        std::uint32_t version = 1;
        std::uint64_t levels = 0;
        if (!in.value(version) || !in.value(levels))
            return fail(start, ParamsTr::tr("The file ends before the parameter \"%1\".").arg(who));
        if (version != 0 || levels > kMaxLodLevels)
            return fail(start,
                        ParamsTr::tr("The record of \"%1\" does not start as a saved tensor does "
                                     "(version %2, %3 LoD levels).")
                            .arg(who)
                            .arg(version)
                            .arg(levels));
        for (std::uint64_t level = 0; level < levels; ++level) {
            std::uint64_t bytes = 0;
            if (!in.value(bytes) || bytes > std::uint64_t(in.left()) || !in.skip(std::int64_t(bytes)))
                return fail(start, ParamsTr::tr("The LoD of \"%1\" runs past the end of the file.").arg(who));
        }
        std::int32_t descBytes = 0;
        if (!in.value(version) || !in.value(descBytes))
            return fail(start, ParamsTr::tr("The file ends inside the record of \"%1\".").arg(who));
        if (version != 0 || descBytes < 0 || descBytes > kMaxDescBytes || descBytes > in.left())
            return fail(start,
                        ParamsTr::tr("The tensor header of \"%1\" is damaged (version %2, a description "
                                     "of %3 bytes).")
                            .arg(who)
                            .arg(version)
                            .arg(descBytes));
        std::string descText(std::size_t(descBytes), '\0');
        runlens_paddle::VarType::TensorDesc desc;
        if (!in.read(descText.data(), descBytes) || !desc.ParseFromString(descText))
            return fail(start, ParamsTr::tr("The tensor description of \"%1\" is not readable.").arg(who));
        const int itemSize = paddleTypeSize(desc.data_type());
        if (itemSize == 0 || desc.dims_size() > kMaxRank)
            return fail(start,
                        ParamsTr::tr("\"%1\" is stored as type %2 with %3 dimensions, not a tensor of "
                                     "numbers.")
                            .arg(who)
                            .arg(desc.data_type())
                            .arg(desc.dims_size()));
        std::int64_t count = 1;
        for (const std::int64_t d : desc.dims()) {
            if (d < 0 || __builtin_mul_overflow(count, d, &count))
                return fail(start, ParamsTr::tr("\"%1\" has an impossible shape.").arg(who));
        }
        std::int64_t length = 0;
        if (__builtin_mul_overflow(count, std::int64_t(itemSize), &length))
            return fail(start, ParamsTr::tr("\"%1\" has an impossible shape.").arg(who));
        if (length > in.left())
            return fail(start,
                        ParamsTr::tr("The values of \"%1\" (%2 bytes by its shape) run past the end of "
                                     "the file.")
                            .arg(who)
                            .arg(length));
        PaddleParam param;
        param.name = name;
        param.dataType = desc.data_type();
        param.dims.assign(desc.dims().begin(), desc.dims().end());
        param.offset = in.position();
        param.length = length;
        if (!in.skip(length))
            return fail(start, ParamsTr::tr("The values of \"%1\" cannot be read.").arg(who));
        index.params.push_back(std::move(param));
    }
    if (in.left() > 0) {
        index.problem = ParamsTr::tr("%1 bytes follow the last parameter: the file holds parameters the program "
                                     "does not name, or another program's.")
                            .arg(in.left());
        index.stoppedAt = in.position();
    }
    return index;
}

namespace {

/// The combined parameter file beside the model: `x.pdiparams` for `x.pdmodel` (paddle.jit.save,
/// save_inference_model), `__params__` or `params` beside `__model__` (fluid 1.x); empty when there is none.
QString combinedParamsFile(const QString& modelPath)
{
    const QFileInfo model(modelPath);
    const QDir dir = model.dir();
    QStringList candidates { model.completeBaseName() + QStringLiteral(".pdiparams") };
    if (model.fileName() == QLatin1String("__model__") || model.suffix() != QLatin1String("pdmodel"))
        candidates << QStringLiteral("__params__") << QStringLiteral("params");
    for (const QString& name : candidates) {
        const QFileInfo file(dir.filePath(name));
        if (file.isFile())
            return file.absoluteFilePath();
    }
    return {};
}

} // namespace

void locatePaddleParameters(models::graph::Graph& graph, const std::vector<std::string>& names, const QString& path,
                            int parameters, models::Diagnostics& diagnostics)
{
    std::unordered_map<std::string, PaddleParam> found;
    QString source;
    const QString combined = combinedParamsFile(path);
    if (!combined.isEmpty()) {
        QFile file(combined);
        if (!file.open(QIODevice::ReadOnly)) {
            diagnostics.append(
                graphDiagnostic(models::Severity::Warning, combined,
                                GraphTr::tr("The parameter file cannot be opened: %1").arg(file.errorString())));
            return;
        }
        PaddleParamsIndex index = indexPaddleParams(file, names);
        source = QFileInfo(combined).fileName();
        for (PaddleParam& p : index.params)
            found.emplace(p.name, std::move(p));
        if (!index.problem.isEmpty())
            diagnostics.append(
                graphDiagnostic(models::Severity::Warning, combined,
                                GraphTr::tr("%1 The values of %2 of the %3 saved parameters were located.")
                                    .arg(index.problem)
                                    .arg(found.size())
                                    .arg(names.size()),
                                index.stoppedAt));
    } else {
        // Separate files: each holds one saved tensor, named as its variable.
        const QDir dir = QFileInfo(path).dir();
        for (const std::string& name : names) {
            QFile file(dir.filePath(QString::fromStdString(name)));
            if (name.empty() || name.find('/') != std::string::npos || !file.open(QIODevice::ReadOnly))
                continue;
            PaddleParamsIndex one = indexPaddleParams(file, { name });
            if (one.params.size() == 1 && one.problem.isEmpty())
                found.emplace(name, std::move(one.params.front()));
        }
    }
    if (found.empty()) {
        if (parameters > 0)
            diagnostics.append(graphDiagnostic(
                models::Severity::Info, path,
                GraphTr::tr("%n persistable variable(s) are shown as parameters with shape and type only: no "
                            "parameter file (%1) is beside the model.",
                            nullptr, parameters)
                    .arg(QFileInfo(path).completeBaseName() + QStringLiteral(".pdiparams"))));
        return;
    }
    int located = 0;
    int mismatched = 0;
    std::string firstMismatch;
    for (models::graph::Node& node : graph.nodes) {
        if (node.kind != models::graph::NodeKind::Parameter || !node.data)
            continue;
        const auto it = found.find(node.name);
        if (it == found.end())
            continue;
        const PaddleParam& p = it->second;
        models::graph::TensorLocation& location = *node.data;
        const bool sameShape = !location.type.rankKnown || location.type.dims == p.dims;
        const bool sameType = location.type.dtype.empty() || location.type.dtype == paddleDataTypeName(p.dataType);
        if (!sameShape || !sameType) {
            if (mismatched++ == 0)
                firstMismatch = node.name;
            continue;
        }
        location.type.dtype = paddleDataTypeName(p.dataType);
        location.type.dims = p.dims;
        location.type.rankKnown = true;
        location.file = source.isEmpty() ? p.name : source.toStdString();
        location.offset = p.offset;
        location.length = p.length;
        location.encoding = "raw";
        ++located;
    }
    diagnostics.append(graphDiagnostic(models::Severity::Info, path,
                                       GraphTr::tr("The values of %n parameter(s) are located in %1.", nullptr, located)
                                           .arg(source.isEmpty() ? GraphTr::tr("one file per parameter") : source)));
    if (mismatched > 0)
        diagnostics.append(graphDiagnostic(
            models::Severity::Warning, combined.isEmpty() ? path : combined,
            GraphTr::tr("%n saved parameter(s) differ in shape or type from the program (the first is \"%1\"); "
                        "the parameter file may belong to another model.",
                        nullptr, mismatched)
                .arg(QString::fromStdString(text::elide(firstMismatch, 200)))));
}

} // namespace runlens::importers::graph
