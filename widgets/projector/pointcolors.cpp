#include "widgets/projector/pointcolors.h"

#include "models/embeddings/embeddingset.h"
#include "widgets/common/colormap.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::projector {

namespace {

struct ColorsTr
{
    Q_DECLARE_TR_FUNCTIONS(runlens::projector::ProjectorPanel)
};

// Pairs of a strong and a light shade of ten hues: the strong ones first, so few categories stay vivid.
constexpr QRgb kPalette[PointColors::kMaxCategories] = {
    0xff1f77b4, 0xffff7f0e, 0xff2ca02c, 0xffd62728, 0xff9467bd, 0xff8c564b, 0xffe377c2,
    0xff7f7f7f, 0xffbcbd22, 0xff17becf, 0xffaec7e8, 0xffffbb78, 0xff98df8a, 0xffff9896,
    0xffc5b0d5, 0xffc49c94, 0xfff7b6d2, 0xffc7c7c7, 0xffdbdb8d, 0xff9edae5,
};
constexpr QRgb kUniform = 0xff4c78a8;

} // namespace

QColor categoryColor(int index)
{
    return QColor::fromRgb(kPalette[std::size_t(index) % std::size(kPalette)]);
}

PointColors colorPoints(const models::embeddings::EmbeddingSet& set, int column)
{
    PointColors result;
    result.colors.assign(std::size_t(set.rows), kUniform);
    if (column < 0 || column >= set.metadataColumns.size())
        return result;

    QHash<QString, int> counts;
    bool numeric = true;
    double minimum = INFINITY;
    double maximum = -INFINITY;
    std::vector<double> numbers(std::size_t(set.rows), 0.0);
    for (int i = 0; i < set.rows; ++i) {
        const QString cell = set.cell(i, column);
        if (counts.size() <= PointColors::kMaxCategories || !counts.contains(cell))
            ++counts[cell];
        if (numeric) {
            bool ok = false;
            const double value = cell.toDouble(&ok);
            numeric = ok && std::isfinite(value);
            numbers[std::size_t(i)] = value;
            minimum = std::min(minimum, value);
            maximum = std::max(maximum, value);
        }
    }
    if (counts.size() <= PointColors::kMaxCategories) {
        result.kind = PointColors::Kind::Categorical;
        QList<QPair<int, QString>> order;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            order.append({ -it.value(), it.key() });
        std::sort(order.begin(), order.end());
        QHash<QString, QRgb> colorOf;
        for (int c = 0; c < order.size(); ++c) {
            result.categories.append(order[c].second);
            result.categoryColors.append(categoryColor(c));
            colorOf.insert(order[c].second, kPalette[c]);
        }
        for (int i = 0; i < set.rows; ++i)
            result.colors[std::size_t(i)] = colorOf.value(set.cell(i, column), kUniform);
        return result;
    }
    if (numeric && set.rows > 0) {
        result.kind = PointColors::Kind::Continuous;
        result.minimum = minimum;
        result.maximum = maximum;
        const auto& table = colorTable(ColorMap::Viridis);
        const double span = maximum > minimum ? maximum - minimum : 1.0;
        for (int i = 0; i < set.rows; ++i) {
            const int at = std::clamp(int((numbers[std::size_t(i)] - minimum) / span * 255.0 + 0.5), 0, 255);
            result.colors[std::size_t(i)] = table[std::size_t(at)];
        }
        return result;
    }
    result.note = ColorsTr::tr("%1 has more than %2 distinct values and not only numbers: one colour for all")
                      .arg(set.metadataColumns.at(column))
                      .arg(PointColors::kMaxCategories);
    return result;
}

} // namespace runlens::widgets::projector
