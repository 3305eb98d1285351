#include "models/advisor/tracepatterns.h"

#include "models/advisor/analysishelpers.h"
#include "models/advisor/evidence.h"
#include "models/trace/tracestore.h"

#include <QCoreApplication>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <array>
#include <string_view>
#include <vector>

namespace runlens::models::advisor {

namespace {

enum Pattern { ZeroGrad, SingleTensorOptimizer, SyncDataLoader, ConvBiasBatchNorm, HalfMatmulAlignment, CopyAfterFill };
constexpr int kPatternCount = CopyAfterFill + 1;

const std::array<QString, kPatternCount>& patternMetrics()
{
    static const std::array<QString, kPatternCount> metrics {
        QStringLiteral("pattern.zero_grad"),         QStringLiteral("pattern.single_tensor_optimizer"),
        QStringLiteral("pattern.sync_dataloader"),   QStringLiteral("pattern.conv_bias_bn"),
        QStringLiteral("pattern.fp16_matmul_align"), QStringLiteral("pattern.copy_after_fill"),
    };
    return metrics;
}

constexpr std::uint32_t kNone = 0xffffffffu;

/// The nesting of one CPU thread as a tree: parent, previous sibling and last child of every slice.
/// Instants (memory events, markers) are left out; they nest nothing and are no operators.
struct OpTree
{
    std::vector<std::uint32_t> parent;
    std::vector<std::uint32_t> previous;
    std::vector<std::uint32_t> lastChild;

    explicit OpTree(const trace::Track& track)
        : parent(track.size(), kNone)
        , previous(track.size(), kNone)
        , lastChild(track.size(), kNone)
    {
        std::vector<std::uint32_t> open; // the chain of slices containing the current one
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (track.flags[i] & trace::SliceFlag::Instant)
                continue;
            while (!open.empty() && track.end(open.back()) <= track.start[i])
                open.pop_back();
            if (!open.empty()) {
                parent[i] = open.back();
                previous[i] = lastChild[open.back()];
                lastChild[open.back()] = i;
            } else {
                previous[i] = m_lastRoot;
                m_lastRoot = i;
            }
            open.push_back(i);
        }
    }

private:
    std::uint32_t m_lastRoot = kNone;
};

struct Occurrences
{
    qint64 count = 0;
    std::int64_t start = 0;
    std::int64_t end = 0;
    QString op;
    QString detail; ///< what the first occurrence looked like (shapes, dtype)
};

/// One rank's findings, per pattern.
using PatternCounts = std::array<Occurrences, kPatternCount>;

bool startsWith(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool contains(std::string_view text, std::string_view part)
{
    return text.find(part) != std::string_view::npos;
}

struct Shapes
{
    bool known = false; ///< the slice has "Input Dims"
    QJsonArray dims;
    QJsonArray types;
};

Shapes shapesOf(const trace::TraceStore& store, int track, std::uint32_t slice)
{
    Shapes shapes;
    const std::string_view json = store.argsJson(track, slice);
    if (json.empty())
        return shapes;
    const QJsonObject args = QJsonDocument::fromJson(QByteArray(json.data(), qsizetype(json.size()))).object();
    const QJsonValue dims = args.value(QStringLiteral("Input Dims"));
    shapes.known = dims.isArray();
    shapes.dims = dims.toArray();
    shapes.types = args.value(QStringLiteral("Input type")).toArray();
    return shapes;
}

QString compactJson(const QJsonArray& array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

/// Whether the last two dimensions of every input shape are multiples of 8 (tensor-core friendly).
bool lastDimsAligned(const QJsonArray& dims)
{
    for (const QJsonValue& shape : dims) {
        const QJsonArray sizes = shape.toArray();
        for (qsizetype i = std::max<qsizetype>(0, sizes.size() - 2); i < sizes.size(); ++i) {
            if (sizes.at(i).toInteger() % 8 != 0)
                return false;
        }
    }
    return true;
}

class TrackScanner
{
public:
    TrackScanner(const trace::TraceStore& store, int trackIndex, PatternCounts& counts, bool& shapesSeen,
                 bool& shapeOpsSeen)
        : m_store(store)
        , m_trackIndex(trackIndex)
        , m_track(store.tracks()[std::size_t(trackIndex)])
        , m_tree(m_track)
        , m_counts(counts)
        , m_shapesSeen(shapesSeen)
        , m_shapeOpsSeen(shapeOpsSeen)
    { }

    void scan()
    {
        for (std::uint32_t i = 0; i < m_track.size(); ++i) {
            if (m_track.flags[i] & trace::SliceFlag::Instant)
                continue;
            const std::string_view name = nameOf(i);
            if (isZeroGrad(name) && zeroGradFills(i))
                record(ZeroGrad, i);
            if (contains(name, "_single_tensor_adam") || contains(name, "_single_tensor_sgd"))
                record(SingleTensorOptimizer, i);
            if (startsWith(name, "enumerate(DataLoader)#_SingleProcessDataLoaderIter"))
                record(SyncDataLoader, i);
            if (name == "aten::conv2d")
                checkConvBias(i);
            if (name == "aten::mm" || name == "aten::bmm" || name == "aten::addmm")
                checkMatmul(i);
            if (name == "aten::to")
                checkCopyAfterFill(i);
        }
    }

private:
    std::string_view nameOf(std::uint32_t slice) const { return m_store.strings().view(m_track.name_[slice]); }

    void record(Pattern pattern, std::uint32_t slice, const QString& detail = {})
    {
        Occurrences& o = m_counts[std::size_t(pattern)];
        if (o.count == 0 || m_track.start[slice] < o.start) {
            o.start = m_track.start[slice];
            o.end = m_track.end(slice);
            o.op = m_store.strings().text(m_track.name_[slice]);
            o.detail = detail;
        }
        ++o.count;
    }

    static bool isZeroGrad(std::string_view name)
    {
        return endsWith(name, ": zero_grad") || startsWith(name, "Optimizer.zero_grad");
    }

    /// Whether a zero_grad call fills gradients with zeros (aten::zero_) rather than dropping them
    /// (set_to_none=True); zero_ below aten::zeros only creates a new tensor.
    bool zeroGradFills(std::uint32_t zeroGrad) const
    {
        const std::int64_t end = m_track.end(zeroGrad);
        for (std::uint32_t j = zeroGrad + 1; j < m_track.size() && m_track.start[j] < end; ++j) {
            if (nameOf(j) != "aten::zero_")
                continue;
            const std::uint32_t parent = m_tree.parent[j];
            if (parent == kNone || nameOf(parent) != "aten::zeros")
                return true;
        }
        return false;
    }

    std::uint32_t nextSibling(std::uint32_t slice) const
    {
        // The next slice after this one's subtree with the same parent.
        const std::int64_t end = m_track.end(slice);
        for (std::uint32_t j = slice + 1; j < m_track.size(); ++j) {
            if ((m_track.flags[j] & trace::SliceFlag::Instant) || m_track.start[j] < end)
                continue;
            return m_tree.parent[j] == m_tree.parent[slice] ? j : kNone;
        }
        return kNone;
    }

    void checkConvBias(std::uint32_t conv)
    {
        m_shapeOpsSeen = true;
        const Shapes shapes = shapesOf(m_store, m_trackIndex, conv);
        if (!shapes.known)
            return;
        m_shapesSeen = true;
        const bool bias = shapes.dims.size() >= 3 && !shapes.dims.at(2).toArray().isEmpty();
        if (!bias)
            return;
        // The module annotation (nn.Module: Conv2d_0) when the trace has them, else the op itself.
        std::uint32_t unit = conv;
        for (std::uint32_t p = m_tree.parent[conv]; p != kNone; p = m_tree.parent[p]) {
            if (startsWith(nameOf(p), "nn.Module: Conv")) {
                unit = p;
                break;
            }
        }
        const std::uint32_t next = nextSibling(unit);
        if (next == kNone)
            return;
        const std::string_view nextName = nameOf(next);
        if (nextName == "aten::batch_norm" || startsWith(nextName, "nn.Module: BatchNorm"))
            record(ConvBiasBatchNorm, conv, compactJson(shapes.dims));
    }

    void checkMatmul(std::uint32_t op)
    {
        m_shapeOpsSeen = true;
        const Shapes shapes = shapesOf(m_store, m_trackIndex, op);
        if (!shapes.known)
            return;
        m_shapesSeen = true;
        const QString dtype = shapes.types.isEmpty() ? QString() : shapes.types.at(0).toString();
        if (dtype != QLatin1String("c10::Half") && dtype != QLatin1String("c10::BFloat16"))
            return;
        if (!lastDimsAligned(shapes.dims))
            record(HalfMatmulAlignment, op, compactJson(shapes.dims) + QLatin1Char(' ') + dtype);
    }

    /// aten::to -> aten::_to_copy -> aten::copy_ right after a leaf that initialised a tensor (fill_,
    /// zero_, normal_, uniform_): the tensor was made on one device and then copied to another.
    void checkCopyAfterFill(std::uint32_t to)
    {
        const std::uint32_t toCopy = m_tree.lastChild[to];
        if (toCopy == kNone || nameOf(toCopy) != "aten::_to_copy")
            return;
        const std::uint32_t copy = m_tree.lastChild[toCopy];
        if (copy == kNone || nameOf(copy) != "aten::copy_")
            return;
        // The tensor made just before: the sibling before the aten::to (torch.zeros(n).to(device)), or the
        // one before its caller when a Python frame wraps the conversion (PyTorch's pattern matcher).
        const std::uint32_t parent = m_tree.parent[to];
        for (std::uint32_t leaf : { m_tree.previous[to], parent == kNone ? kNone : m_tree.previous[parent] }) {
            // Only an operator made the tensor; an annotation before (Optimizer.zero_grad) zeroed other ones.
            if (leaf == kNone || !startsWith(nameOf(leaf), "aten::"))
                continue;
            for (; leaf != kNone; leaf = m_tree.lastChild[leaf]) {
                const std::string_view name = nameOf(leaf);
                if (name == "aten::fill_" || name == "aten::zero_" || name == "aten::normal_"
                    || name == "aten::uniform_") {
                    record(CopyAfterFill, to, m_store.strings().text(m_track.name_[leaf]));
                    return;
                }
            }
        }
    }

    const trace::TraceStore& m_store;
    int m_trackIndex;
    const trace::Track& m_track;
    OpTree m_tree;
    PatternCounts& m_counts;
    bool& m_shapesSeen;
    bool& m_shapeOpsSeen;
};

} // namespace

void markTracePatternsMissing(const QString& reason, AnalysisContext& context)
{
    for (const QString& metric : patternMetrics())
        context.markMissing(metric, reason);
}

void analyseTracePatterns(const TraceInput& input, AnalysisContext& context)
{
    const trace::TraceStore& store = *input.store;
    std::vector<PatternCounts> counts(store.sources().size());
    bool shapesSeen = false;
    bool shapeOpsSeen = false;
    bool anyThread = false;
    for (int t = 0; t < int(store.tracks().size()); ++t) {
        if (context.isCanceled())
            return;
        const trace::Track& track = store.tracks()[std::size_t(t)];
        if (track.type != trace::TrackType::Thread || track.size() == 0)
            continue;
        anyThread = true;
        TrackScanner(store, t, counts[std::size_t(track.source)], shapesSeen, shapeOpsSeen).scan();
    }
    if (!anyThread) {
        markTracePatternsMissing(
            QCoreApplication::translate("runlens::advisor", "the trace has no CPU threads with operators"), context);
        return;
    }
    for (int pattern = 0; pattern < kPatternCount; ++pattern) {
        const bool needsShapes = pattern == ConvBiasBatchNorm || pattern == HalfMatmulAlignment;
        if (needsShapes && shapeOpsSeen && !shapesSeen) {
            context.markMissing(
                patternMetrics()[std::size_t(pattern)],
                QCoreApplication::translate("runlens::advisor",
                                            "the trace was recorded without input shapes (record_shapes=False)"));
            continue;
        }
        context.markEvaluated(patternMetrics()[std::size_t(pattern)]);
    }
    for (int source = 0; source < int(counts.size()); ++source) {
        const int rank = store.sources()[std::size_t(source)].rank;
        for (int pattern = 0; pattern < kPatternCount; ++pattern) {
            const Occurrences& o = counts[std::size_t(source)][std::size_t(pattern)];
            if (o.count == 0)
                continue;
            Measurement m;
            m.metric = patternMetrics()[std::size_t(pattern)];
            m.value = double(o.count);
            placeIn(m, runScope(input.run, rank));
            m.scope.op = o.op;
            m.facts.insert(QStringLiteral("count"), o.count);
            if (!o.detail.isEmpty())
                m.facts.insert(QStringLiteral("detail"), o.detail);
            m.evidence << traceEvidence(store.sources()[std::size_t(source)].path, o.start, o.end, rank, o.op);
            m.order = double(o.start);
            context.add(std::move(m));
        }
    }
}

} // namespace runlens::models::advisor
