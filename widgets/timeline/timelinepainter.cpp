#include "widgets/timeline/timelinepainter.h"

#include "models/trace/tracelod.h"
#include "models/trace/tracestore.h"
#include "widgets/timeline/timelinecolors.h"
#include "widgets/timeline/timelineformat.h"
#include "widgets/timeline/timelinehighlight.h"

#include <QFontMetrics>
#include <QHash>
#include <QImage>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace runlens::widgets::timeline {

namespace {

using models::trace::TraceLod;
using models::trace::Track;

constexpr QRgb kSelection = 0xff2f6fde;
constexpr QRgb kMark = 0xffe0a020;
constexpr QRgb kMatchOutline = 0xff1b1f24;
constexpr QRgb kMatchTick = 0xffe8710a;
constexpr double kDimming = 0.72; ///< how far non-matching slices fade into the background while highlighting
constexpr int kLabelMinWidth = 26;
constexpr double kNarrow = 3.0; ///< slices narrower than this go to the per-pixel column buffer

struct Frame
{
    QPainter& p;
    const TimelinePaintState& s;
    TimelinePaintStats stats;
    int width = 0;
    int height = 0;
    double x0 = 0; ///< left edge of the time area
    double x1 = 0;
    double scale = 0; ///< px per ns
    std::int64_t v0 = 0;
    std::int64_t v1 = 0;
    int top = 0; ///< top of the track area
    QFontMetrics fm;
    QImage column; ///< one pixel high: merged sub-pixel slices of one depth row
    QImage caps; ///< the outline of highlighted columns, same shape
    QHash<models::trace::StringId, std::pair<QString, int>> labels; ///< name text and width, per frame
    bool dim = false; ///< a highlight is active: ordinary slices fade
    bool emphasis = false; ///< painting the highlighted slices over the faded ones
    const TimelineChrome& chrome; ///< colours of everything but the slices

    Frame(QPainter& painter, const TimelinePaintState& state, QSize size)
        : p(painter)
        , s(state)
        , width(size.width())
        , height(size.height())
        , fm(painter.font())
        , chrome(state.dark ? TimelineChrome::dark() : TimelineChrome::light())
    {
        x0 = state.labelWidth;
        x1 = width;
        v0 = state.visible.start;
        v1 = state.visible.end;
        scale = (x1 - x0) / double(std::max<std::int64_t>(1, v1 - v0));
        top = TimelinePainter::kRulerHeight;
        dim = state.highlight && !state.highlight->isEmpty();
    }

    double xOf(std::int64_t t) const { return x0 + double(t - v0) * scale; }
    std::int64_t tOf(double x) const { return v0 + std::int64_t(std::ceil((x - x0) / scale)); }
    int rowTop(const TimelineRow& row) const { return top + row.y - s.scrollY; }

    QRgb colorOf(const Track& track, std::size_t i) const
    {
        if (s.colorByCategory)
            return timelineKindColor(track.kind[i]);
        const models::trace::StringId id = track.name_[i];
        if (s.nameColors && id < s.nameColors->size())
            return (*s.nameColors)[id];
        return timelineNameColor(s.store->strings().view(id));
    }

    /// The colour actually painted: faded while a highlight is active, unless this is the highlight pass.
    QRgb shade(QRgb c) const
    {
        if (!dim || emphasis)
            return c;
        const QRgb to = chrome.background; // fade into the background, light or dark
        auto fade = [](int v, int target) { return v + int((target - v) * kDimming); };
        return qRgba(fade(qRed(c), qRed(to)), fade(qGreen(c), qGreen(to)), fade(qBlue(c), qBlue(to)), qAlpha(c));
    }
};

/// A slice wide enough to be a rect: plain for threads and streams, a rounded outlined capsule for async
/// tracks, with a strong outline when it is highlighted.
void fillSlice(Frame& f, const Track& track, const QRectF& r, QRgb color)
{
    const QColor c = QColor::fromRgba(color);
    if (track.type == models::trace::TrackType::Async) {
        f.p.setRenderHint(QPainter::Antialiasing, true);
        f.p.setPen(QPen(QColor::fromRgba(f.shade(c.darker(135).rgba())), 1));
        f.p.setBrush(QColor::fromRgba(f.shade(c.lighter(112).rgba())));
        const double radius = std::min(5.0, r.width() / 2);
        f.p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius);
        f.p.setRenderHint(QPainter::Antialiasing, false);
    } else {
        f.p.fillRect(r, QColor::fromRgba(f.shade(color)));
    }
    if (f.emphasis) {
        f.p.setBrush(Qt::NoBrush);
        f.p.setPen(QPen(QColor::fromRgba(kMatchOutline), 1.5));
        f.p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
    }
    ++f.stats.rects;
}

void paintStepBands(Frame& f)
{
    const auto& steps = f.s.store->steps();
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const models::trace::Step& step = steps[i];
        if (step.end < f.v0 || step.start > f.v1)
            continue;
        const double a = std::max(f.x0, f.xOf(step.start));
        const double b = std::min(f.x1, f.xOf(step.end));
        if (i % 2 == 0 && b > a)
            f.p.fillRect(QRectF(a, f.top, b - a, f.height - f.top), QColor::fromRgba(f.chrome.stepBand));
    }
}

void paintStepLines(Frame& f)
{
    QPen pen(QColor::fromRgba(0xffb4bcc8), 1, Qt::DashLine);
    f.p.setPen(pen);
    for (const models::trace::Step& step : f.s.store->steps()) {
        if (step.start < f.v0 || step.start > f.v1)
            continue;
        const double x = std::round(f.xOf(step.start)) + 0.5;
        f.p.drawLine(QPointF(x, f.top), QPointF(x, f.height));
    }
}

/// The ruler's tick lines continued through the tracks, behind the slices.
void paintGrid(Frame& f)
{
    const std::int64_t origin = f.s.store->startTime();
    const std::int64_t step = TimelineFormat::tickStep(1.0 / f.scale, 90);
    std::int64_t rel = ((f.v0 - origin) / step) * step;
    if (origin + rel < f.v0)
        rel += step;
    f.p.setPen(QColor::fromRgba(0xffedf0f3));
    for (; origin + rel <= f.v1; rel += step) {
        const double x = std::round(f.xOf(origin + rel)) + 0.5;
        f.p.drawLine(QPointF(x, f.top), QPointF(x, f.height));
    }
}

void paintLabel(Frame& f, const QRectF& r, const Track& track, std::size_t i, QRgb color)
{
    const int available = int(r.width()) - 8;
    if (available < 8)
        return;
    // Names repeat across a frame: convert and measure each once, elide only when it does not fit.
    const models::trace::StringId id = track.name_[i];
    auto it = f.labels.find(id);
    if (it == f.labels.end()) {
        const QString text = f.s.store->strings().text(id);
        it = f.labels.insert(id, { text, f.fm.horizontalAdvance(text) });
    }
    QString elided;
    if (it->second <= available) {
        elided = it->first;
    } else {
        elided = f.fm.elidedText(it->first, Qt::ElideRight, available);
        if (elided.isEmpty() || elided == QStringLiteral("…"))
            return;
    }
    f.p.setPen(QColor::fromRgba(timelineTextColor(f.shade(color))));
    const double baseline = r.top() + (r.height() + f.fm.ascent() - f.fm.descent()) / 2.0;
    f.p.drawText(QPointF(r.left() + 4, baseline), elided);
    ++f.stats.labels;
}

void paintDiamond(Frame& f, double x, double y, double h, QRgb color)
{
    const double r = std::min(5.0, h / 2 - 1);
    const QPointF pts[4] = { { x, y + h / 2 - r }, { x + r, y + h / 2 }, { x, y + h / 2 + r }, { x - r, y + h / 2 } };
    f.p.setPen(f.emphasis ? QPen(QColor::fromRgba(kMatchOutline), 1.5)
                          : QPen(QColor::fromRgba(f.shade(0xff4a4f57)), 0.8));
    f.p.setBrush(QColor::fromRgba(f.shade(color)));
    f.p.drawConvexPolygon(pts, 4);
    ++f.stats.rects;
}

/// Draws the filled pixel columns [colMin, colMax] of the line buffer as one image, with a dark cap above
/// and below each column in the highlight pass, then clears them.
void flushColumns(Frame& f, double y, double h, int colMin, int colMax)
{
    auto* line = reinterpret_cast<QRgb*>(f.column.bits());
    const QRectF source(colMin, 0, colMax - colMin + 1, 1);
    f.p.drawImage(QRectF(f.x0 + colMin, y, colMax - colMin + 1, h), f.column, source);
    if (f.emphasis) {
        // Sub-pixel matches: the caps keep them visible among faded neighbours.
        auto* caps = reinterpret_cast<QRgb*>(f.caps.bits());
        for (int c = colMin; c <= colMax; ++c)
            caps[c] = line[c] != 0 ? kMatchOutline : QRgb(0);
        f.p.drawImage(QRectF(f.x0 + colMin, y, colMax - colMin + 1, 2), f.caps, source);
        f.p.drawImage(QRectF(f.x0 + colMin, y + h - 2, colMax - colMin + 1, 2), f.caps, source);
    }
    std::fill(line + colMin, line + colMax + 1, QRgb(0));
}

/// One depth row: wide slices as rects with labels; everything narrower than kNarrow pixels is merged
/// into a one-pixel-high column image, and the walk jumps past each filled column with a search.
void paintDepthRow(Frame& f, const Track& track, const std::vector<std::uint32_t>& row, double y, double h)
{
    if (row.empty())
        return;
    const int columns = int(f.x1 - f.x0);
    auto* line = reinterpret_cast<QRgb*>(f.column.bits());
    bool anyColumn = false;
    int colMin = columns;
    int colMax = -1;
    std::size_t p = TraceLod::firstVisible(track, row, f.v0);
    const std::size_t n = row.size();
    double lastDiamond = -1e9;
    while (p < n) {
        const std::uint32_t i = row[p];
        const std::int64_t s = track.start[i];
        if (s > f.v1)
            break;
        ++f.stats.slicesVisited;
        const double xs = f.xOf(s);
        if (track.flags[i] & models::trace::SliceFlag::Instant) {
            if (xs - lastDiamond >= 4) {
                paintDiamond(f, xs, y, h, f.colorOf(track, i));
                lastDiamond = xs;
            }
            p = TraceLod::lowerBound(track, row, p + 1, f.tOf(xs + 4));
            continue;
        }
        const double xe = f.xOf(s + track.duration[i]);
        const double a = std::max(xs, f.x0 - 1);
        const double b = std::min(xe, f.x1 + 1);
        if (b - a >= kNarrow) {
            const QRgb color = f.colorOf(track, i);
            const QRectF r(a, y, (b - a) > 5 ? b - a - 1 : b - a, h);
            fillSlice(f, track, r, color);
            if (r.width() >= kLabelMinWidth) {
                // Keep the label in view when the slice starts left of the visible area.
                QRectF labelRect = r.intersected(QRectF(f.x0, y, f.x1 - f.x0, h));
                paintLabel(f, labelRect, track, i, color);
            }
            ++p;
            continue;
        }
        // Narrow: fill its pixel columns (at least one) in the line buffer.
        const int c0 = std::clamp(int(std::floor(a - f.x0)), 0, columns - 1);
        const int c1 = std::clamp(int(std::ceil(b - f.x0)) - 1, c0, columns - 1);
        const QRgb color = f.shade(f.colorOf(track, i));
        for (int c = c0; c <= c1; ++c)
            line[c] = color;
        colMin = std::min(colMin, c0);
        colMax = std::max(colMax, c1);
        anyColumn = true;
        f.stats.rects += c1 - c0 + 1;
        // Everything that starts before the next column is covered by this one.
        const std::int64_t next = f.tOf(f.x0 + c1 + 1);
        const std::size_t q = TraceLod::lowerBound(track, row, p + 1, next);
        if (q - 1 > p && f.xOf(track.end(row[q - 1])) > f.x0 + c1 + 1)
            p = q - 1; // a long slice starting inside this column: paint the rest of it
        else
            p = q;
    }
    if (anyColumn)
        flushColumns(f, y, h, colMin, colMax);
}

/// One depth row from a precomputed level: one bucket scan per pixel column, then runs of columns that
/// show the same slice become one rect (with its label when wide), the rest fill the column image.
void paintDepthRowFromLevel(Frame& f, const Track& track, const std::vector<std::uint32_t>& row,
                            const TraceLod::Level& level, double y, double h)
{
    const int columns = int(f.x1 - f.x0);
    const std::int64_t origin = f.s.lod->origin();
    const double nsPerPixel = 1.0 / f.scale;
    const auto buckets = std::int64_t(level.position.size());
    auto* line = reinterpret_cast<QRgb*>(f.column.bits());
    int colMin = columns;
    int colMax = -1;
    std::uint32_t runPos = TraceLod::kEmpty;
    models::trace::StringId runName = models::trace::kNoString;
    int runStart = 0;
    auto flush = [&](int end) { // columns [runStart, end) show slice position runPos
        if (runPos == TraceLod::kEmpty)
            return;
        if (end - runStart >= kNarrow) {
            const std::uint32_t i = row[runPos];
            const QRgb color = f.colorOf(track, i);
            ++f.stats.slicesVisited;
            const double a = std::max(f.xOf(track.start[i]), f.x0 - 1);
            const double b = std::min(f.xOf(track.end(i)), f.x1 + 1);
            const QRectF r(a, y, std::max(1.0, (b - a) > 5 ? b - a - 1 : b - a), h);
            fillSlice(f, track, r, color);
            if (r.width() >= kLabelMinWidth)
                paintLabel(f, r.intersected(QRectF(f.x0, y, f.x1 - f.x0, h)), track, i, color);
            return;
        }
        // Narrow: the colour comes from the level itself, without touching the slice.
        const QRgb color = f.s.colorByCategory ? f.colorOf(track, row[runPos])
            : (f.s.nameColors && runName < f.s.nameColors->size())
            ? (*f.s.nameColors)[runName]
            : timelineNameColor(f.s.store->strings().view(runName));
        const QRgb shaded = f.shade(color);
        for (int c = runStart; c < end; ++c)
            line[c] = shaded;
        colMin = std::min(colMin, runStart);
        colMax = std::max(colMax, end - 1);
        f.stats.rects += end - runStart;
    };
    for (int c = 0; c < columns; ++c) {
        const double t0 = double(f.v0 - origin) + c * nsPerPixel;
        std::int64_t b0 = std::int64_t(std::floor(t0 / double(level.bucket)));
        std::int64_t b1 = std::int64_t(std::floor((t0 + nsPerPixel) / double(level.bucket)));
        b0 = std::max<std::int64_t>(b0, 0);
        b1 = std::min(b1, buckets - 1);
        std::uint32_t pos = TraceLod::kEmpty;
        models::trace::StringId name = models::trace::kNoString;
        for (std::int64_t b = b0; b <= b1; ++b) {
            if (level.position[std::size_t(b)] != TraceLod::kEmpty) {
                pos = level.position[std::size_t(b)];
                name = level.name[std::size_t(b)];
                break;
            }
        }
        if (pos != runPos) {
            flush(c);
            runPos = pos;
            runName = name;
            runStart = c;
        }
    }
    flush(columns);
    if (colMax >= colMin)
        flushColumns(f, y, h, colMin, colMax);
}

void paintSliceTrack(Frame& f, const TimelineRow& row, int rowTop)
{
    const Track& track = f.s.store->tracks()[std::size_t(row.track)];
    const auto& rows = f.s.lod->track(row.track).rows;
    for (std::size_t d = 0; d < rows.size(); ++d) {
        const int y = rowTop + TimelineLayout::kTrackPadding + int(d) * TimelineLayout::kSliceRowHeight;
        if (y + TimelineLayout::kSliceRowHeight < f.top || y > f.height)
            continue;
        const TraceLod::Level* level = f.s.lod->levelFor(row.track, int(d), 1.0 / f.scale);
        if (level)
            paintDepthRowFromLevel(f, track, rows[d], *level, y, TimelineLayout::kSliceRowHeight - 1);
        else
            paintDepthRow(f, track, rows[d], y, TimelineLayout::kSliceRowHeight - 1);
    }
    if (!f.dim)
        return;
    // The highlighted slices again, in full colour and outlined, over the faded row. Walking only the
    // matches (with the same per-column jumps) shows a match even where the merged coverage above picked
    // another slice for its pixel column.
    const auto& matches = f.s.highlight->rows(row.track);
    f.emphasis = true;
    for (std::size_t d = 0; d < matches.size(); ++d) {
        const int y = rowTop + TimelineLayout::kTrackPadding + int(d) * TimelineLayout::kSliceRowHeight;
        if (y + TimelineLayout::kSliceRowHeight < f.top || y > f.height || matches[d].empty())
            continue;
        // Thousands of matches in a row: read their own coverage levels, as for the row itself.
        const TraceLod::Level* level = TraceLod::finestLevel(f.s.highlight->levels(row.track, int(d)), 1.0 / f.scale);
        if (level)
            paintDepthRowFromLevel(f, track, matches[d], *level, y, TimelineLayout::kSliceRowHeight - 1);
        else
            paintDepthRow(f, track, matches[d], y, TimelineLayout::kSliceRowHeight - 1);
    }
    f.emphasis = false;
}

QString compactNumber(double v)
{
    const double a = std::abs(v);
    static const char* const kSuffix[] = { "", " k", " M", " G", " T", " P" };
    int i = 0;
    double scaled = v;
    while (std::abs(scaled) >= 1000 && i < 5) {
        scaled /= 1000;
        ++i;
    }
    if (a < 1000)
        return QString::number(v, 'g', 4);
    return QString::number(scaled, 'g', 3) + QLatin1String(kSuffix[i]);
}

void paintCounterTrack(Frame& f, const TimelineRow& row, int rowTop)
{
    const Track& track = f.s.store->tracks()[std::size_t(row.track)];
    const auto& range = f.s.lod->track(row.track);
    const auto& time = track.counterTime;
    const auto& value = track.counterValue;
    if (time.empty())
        return;
    const double span = std::max(1e-300, range.counterMax - range.counterMin);
    const double chartTop = rowTop + 4;
    const double chartHeight = row.height - 8;
    const double baseline = chartTop + chartHeight * (range.counterMax / span);
    auto yOf = [&](double v) { return chartTop + chartHeight * (range.counterMax - v) / span; };

    QPolygonF poly;
    const int columns = int(f.x1 - f.x0);
    // Counters hold their last value until the end of the trace.
    const int lastColumn = std::min(columns, int(std::ceil(f.xOf(f.s.store->endTime()) - f.x0)));
    std::size_t p = TraceLod::counterLowerBound(track, 0, f.v0);
    bool started = p > 0;
    double current = started ? value[p - 1] : 0.0;
    poly.reserve(2 * std::max(0, lastColumn) + 4);
    double lastY = 0;
    for (int c = 0; c < lastColumn; ++c) {
        const std::int64_t colEnd = f.tOf(f.x0 + c + 1);
        // The column shows the largest value held within it (from at most 64 samples, then a jump).
        double peak = current;
        bool any = started;
        int seen = 0;
        while (p < time.size() && time[p] < colEnd) {
            peak = any ? std::max(peak, value[p]) : value[p];
            any = true;
            current = value[p];
            ++p;
            ++f.stats.slicesVisited;
            if (++seen == 64) {
                p = TraceLod::counterLowerBound(track, p, colEnd);
                current = value[p - 1];
            }
        }
        if (!any)
            continue;
        const double y = yOf(peak);
        const double x = f.x0 + c;
        if (!started || poly.isEmpty()) {
            poly << QPointF(x, baseline) << QPointF(x, y) << QPointF(x + 1, y);
            started = true;
        } else if (y == lastY) {
            poly.last().setX(x + 1);
        } else {
            poly << QPointF(x, y) << QPointF(x + 1, y);
        }
        lastY = y;
    }
    if (poly.size() < 2)
        return;
    poly << QPointF(poly.last().x(), baseline);
    const QColor base = QColor::fromRgba(timelineNameColor(f.s.store->strings().view(track.name)));
    QColor fill = base;
    fill.setAlpha(110);
    f.p.setPen(Qt::NoPen);
    f.p.setBrush(fill);
    f.p.drawPolygon(poly);
    f.p.setPen(QPen(base.darker(125), 1));
    f.p.drawPolyline(poly.constData() + 1, int(poly.size()) - 2);
    f.stats.rects += poly.size() / 2;
    // Scale hint: the maximum, top right of the chart.
    f.p.setPen(QColor::fromRgba(f.chrome.muted));
    f.p.drawText(QRectF(f.x0, rowTop + 1, f.x1 - f.x0 - 6, 14), Qt::AlignRight | Qt::AlignTop,
                 TimelinePainter::tr("max %1").arg(compactNumber(range.counterMax)));
}

void paintSelectedSlice(Frame& f)
{
    const auto& s = f.s;
    auto outline = [&](int trackIndex, std::int64_t index, QRgb color, double width) {
        if (trackIndex < 0 || std::size_t(trackIndex) >= s.store->tracks().size())
            return;
        const Track& track = s.store->tracks()[std::size_t(trackIndex)];
        if (index < 0 || std::size_t(index) >= track.size())
            return;
        const int r = s.layout->rowOfTrack(trackIndex);
        if (r < 0 || s.layout->rows()[std::size_t(r)].kind != TimelineRow::Slices)
            return;
        const TimelineRow& row = s.layout->rows()[std::size_t(r)];
        const double y = f.rowTop(row) + TimelineLayout::kTrackPadding
            + track.depth[std::size_t(index)] * TimelineLayout::kSliceRowHeight;
        double a = f.xOf(track.start[std::size_t(index)]);
        double b = f.xOf(track.end(std::size_t(index)));
        if (b < f.x0 || a > f.x1)
            return;
        a = std::max(a, f.x0 - 2);
        b = std::min(b, f.x1 + 2);
        if (b - a < 3) {
            const double mid = (a + b) / 2;
            a = mid - 1.5;
            b = mid + 1.5;
        }
        f.p.setBrush(Qt::NoBrush);
        f.p.setPen(QPen(QColor::fromRgba(color), width));
        f.p.drawRect(QRectF(a, y, b - a, TimelineLayout::kSliceRowHeight - 1));
    };
    outline(s.hoverTrack, s.hoverIndex, 0x90ffffff, 2);
    outline(s.selectedTrack, s.selectedIndex, 0xff15181d, 2);
}

void paintFlows(Frame& f)
{
    const auto& s = f.s;
    if (s.selectedTrack < 0 || !s.showFlows)
        return;
    auto anchor = [&](int trackIndex, std::uint32_t slice, bool atEnd, QPointF* out) {
        const int r = s.layout->rowOfTrack(trackIndex);
        if (r < 0 || std::size_t(trackIndex) >= s.store->tracks().size())
            return false;
        const Track& track = s.store->tracks()[std::size_t(trackIndex)];
        if (slice >= track.size())
            return false;
        const TimelineRow& row = s.layout->rows()[std::size_t(r)];
        const double y = f.rowTop(row) + TimelineLayout::kTrackPadding
            + track.depth[slice] * TimelineLayout::kSliceRowHeight + TimelineLayout::kSliceRowHeight / 2.0;
        *out = QPointF(f.xOf(atEnd ? track.end(slice) : track.start[slice]), y);
        return true;
    };
    f.p.setRenderHint(QPainter::Antialiasing, true);
    const QColor color = QColor::fromRgba(0xff3c4550);
    for (const models::trace::Flow& flow : s.store->flows()) {
        const bool from = flow.fromTrack == s.selectedTrack && std::int64_t(flow.fromSlice) == s.selectedIndex;
        const bool to = flow.toTrack == s.selectedTrack && std::int64_t(flow.toSlice) == s.selectedIndex;
        if (!from && !to)
            continue;
        QPointF a;
        QPointF b;
        if (!anchor(flow.fromTrack, flow.fromSlice, true, &a) || !anchor(flow.toTrack, flow.toSlice, false, &b))
            continue;
        QPainterPath path(a);
        const double dx = std::max(20.0, std::abs(b.x() - a.x()) / 2);
        path.cubicTo(a + QPointF(dx, 0), b - QPointF(dx, 0), b);
        f.p.setPen(QPen(color, 1.3));
        f.p.setBrush(Qt::NoBrush);
        f.p.drawPath(path);
        const QPointF head[3] = { b, b + QPointF(-7, -3.5), b + QPointF(-7, 3.5) };
        f.p.setBrush(color);
        f.p.drawConvexPolygon(head, 3);
    }
    f.p.setRenderHint(QPainter::Antialiasing, false);
}

void paintOverlays(Frame& f)
{
    const auto& s = f.s;
    for (const models::TimeSpan& mark : s.marks) {
        const double a = f.xOf(mark.start);
        const double b = f.xOf(mark.end);
        if (b < f.x0 || a > f.x1)
            continue;
        if (b - a >= 1) {
            QColor fill = QColor::fromRgba(kMark);
            fill.setAlpha(28);
            f.p.fillRect(QRectF(a, f.top, b - a, f.height - f.top), fill);
        }
        f.p.setPen(QPen(QColor::fromRgba(kMark), 1));
        f.p.drawLine(QPointF(a, f.top), QPointF(a, f.height));
        if (b - a >= 1)
            f.p.drawLine(QPointF(b, f.top), QPointF(b, f.height));
    }
    if (s.selection.valid()) {
        const double a = std::max(f.x0 - 1, f.xOf(s.selection.start));
        const double b = std::min(f.x1 + 1, f.xOf(s.selection.end));
        if (b >= f.x0 - 1 && a <= f.x1 + 1) {
            QColor shade = QColor::fromRgba(kSelection);
            shade.setAlpha(26);
            f.p.fillRect(QRectF(a, f.top, std::max(1.0, b - a), f.height - f.top), shade);
            f.p.setPen(QPen(QColor::fromRgba(kSelection), 1));
            f.p.drawLine(QPointF(a, f.top), QPointF(a, f.height));
            f.p.drawLine(QPointF(b, f.top), QPointF(b, f.height));
        }
    }
}

void paintGutter(Frame& f)
{
    const auto& s = f.s;
    f.p.fillRect(QRectF(0, f.top, f.x0, f.height - f.top), QColor::fromRgba(f.chrome.gutter));
    QFont bold = f.p.font();
    bold.setBold(true);
    const QFont normal = f.p.font();
    for (const TimelineRow& row : s.layout->rows()) {
        const int y = f.rowTop(row);
        if (y + row.height < f.top || y > f.height)
            continue;
        if (row.kind == TimelineRow::ProcessHeader) {
            f.p.fillRect(QRectF(0, y, f.width, row.height), QColor::fromRgba(f.chrome.header));
            const bool collapsed = s.collapsedProcesses.contains(row.process);
            if (collapsed && f.dim) {
                // Matches hidden in a collapsed group: mark its header.
                const auto& tracks = s.store->processes()[std::size_t(row.process)].tracks;
                if (std::any_of(tracks.begin(), tracks.end(), [&](int t) { return s.highlight->hasTrack(t); }))
                    f.p.fillRect(QRectF(2, y + 2, 3, row.height - 4), QColor::fromRgba(kMatchTick));
            }
            // Disclosure triangle.
            const double cx = 12;
            const double cy = y + row.height / 2.0;
            f.p.setRenderHint(QPainter::Antialiasing, true);
            f.p.setPen(Qt::NoPen);
            f.p.setBrush(QColor::fromRgba(f.chrome.muted));
            if (collapsed) {
                const QPointF tri[3] = { { cx - 3, cy - 4.5 }, { cx + 3.5, cy }, { cx - 3, cy + 4.5 } };
                f.p.drawConvexPolygon(tri, 3);
            } else {
                const QPointF tri[3] = { { cx - 4.5, cy - 3 }, { cx + 4.5, cy - 3 }, { cx, cy + 3.5 } };
                f.p.drawConvexPolygon(tri, 3);
            }
            f.p.setRenderHint(QPainter::Antialiasing, false);
            f.p.setFont(bold);
            f.p.setPen(QColor::fromRgba(f.chrome.text));
            const QFontMetrics bfm(bold);
            f.p.drawText(QRectF(24, y, f.width - 30, row.height), Qt::AlignVCenter | Qt::AlignLeft,
                         bfm.elidedText(row.label, Qt::ElideRight, std::max(40, int(f.x1 - 40))));
            f.p.setFont(normal);
            f.p.setPen(QColor::fromRgba(f.chrome.separator));
            f.p.drawLine(QPointF(0, y + row.height - 0.5), QPointF(f.width, y + row.height - 0.5));
            continue;
        }
        if (row.kind == TimelineRow::AsyncHeader) {
            f.p.fillRect(QRectF(0, y, f.width, row.height), QColor::fromRgba(f.chrome.asyncHeader));
            QFont small = normal;
            small.setPointSizeF(normal.pointSizeF() * 0.9);
            small.setCapitalization(QFont::AllUppercase);
            f.p.setFont(small);
            f.p.setPen(QColor::fromRgba(f.chrome.muted));
            f.p.drawText(QRectF(24, y, f.x0 - 30, row.height), Qt::AlignVCenter | Qt::AlignLeft, row.label);
            f.p.setFont(normal);
            f.p.setPen(QColor::fromRgba(f.chrome.separator));
            f.p.drawLine(QPointF(0, y + row.height - 0.5), QPointF(f.width, y + row.height - 0.5));
            continue;
        }
        if (f.dim && f.s.highlight->hasTrack(row.track))
            f.p.fillRect(QRectF(2, y + 2, 3, row.height - 4), QColor::fromRgba(kMatchTick));
        const QRectF labelRect(24, y + TimelineLayout::kTrackPadding, f.x0 - 30, TimelineLayout::kSliceRowHeight);
        if (row.async) {
            // Async tracks: an outlined capsule marker and an italic name, like their slices.
            f.p.setRenderHint(QPainter::Antialiasing, true);
            f.p.setPen(QPen(QColor::fromRgba(f.chrome.muted), 1));
            f.p.setBrush(Qt::NoBrush);
            f.p.drawRoundedRect(QRectF(10, labelRect.center().y() - 4, 9, 8), 3, 3);
            f.p.setRenderHint(QPainter::Antialiasing, false);
            QFont italic = normal;
            italic.setItalic(true);
            f.p.setFont(italic);
        }
        f.p.setPen(QColor::fromRgba(row.kind == TimelineRow::Counter ? f.chrome.muted : f.chrome.text));
        f.p.drawText(labelRect, Qt::AlignVCenter | Qt::AlignLeft,
                     f.fm.elidedText(row.label, Qt::ElideMiddle, int(f.x0) - 30));
        f.p.setFont(normal);
        f.p.setPen(QColor::fromRgba(f.chrome.separator));
        f.p.drawLine(QPointF(0, y + row.height - 0.5), QPointF(f.width, y + row.height - 0.5));
    }
    f.p.setPen(QColor::fromRgba(0xffd5dae0));
    f.p.drawLine(QPointF(f.x0 - 0.5, f.top), QPointF(f.x0 - 0.5, f.height));
}

/// A tick on the ruler's lower edge per pixel column holding the start of a highlighted slice: matches stay
/// findable when they are far narrower than a pixel. One search per tick, so at most one per column.
void paintMatchTicks(Frame& f, int rulerHeight)
{
    const auto& starts = f.s.highlight->starts();
    const QColor color = QColor::fromRgba(kMatchTick);
    auto it = std::lower_bound(starts.begin(), starts.end(), f.v0);
    while (it != starts.end() && *it <= f.v1) {
        const double x = std::floor(f.xOf(*it));
        f.p.fillRect(QRectF(x, rulerHeight - 6, 2, 5), color);
        ++f.stats.rects;
        it = std::lower_bound(it + 1, starts.end(), f.tOf(x + 3));
    }
}

void paintRuler(Frame& f)
{
    const auto& s = f.s;
    const int h = TimelinePainter::kRulerHeight;
    const int tickRow = TimelinePainter::kTickRowHeight;
    f.p.fillRect(QRectF(0, 0, f.width, h), QColor::fromRgba(f.chrome.ruler));
    const std::int64_t origin = s.store ? s.store->startTime() : 0;
    const std::int64_t step = TimelineFormat::tickStep(1.0 / f.scale, 90);
    // Ticks at multiples of `step` relative to the trace start.
    std::int64_t rel = ((f.v0 - origin) / step) * step;
    if (origin + rel < f.v0)
        rel += step;
    // Deep inside a long trace the labels would be long numbers: then the first tick is absolute and the
    // others are offsets from it.
    const std::int64_t firstRel = rel;
    const bool offsets = (f.v1 - origin) / step >= 10'000;
    f.p.save();
    f.p.setClipRect(QRectF(f.x0, 0, f.x1 - f.x0, f.height));
    for (; origin + rel <= f.v1; rel += step) {
        const double x = std::round(f.xOf(origin + rel)) + 0.5;
        f.p.setPen(QColor::fromRgba(f.chrome.tick));
        f.p.drawLine(QPointF(x, tickRow - 6), QPointF(x, h));
        f.p.setPen(QColor::fromRgba(f.chrome.muted));
        f.p.drawText(QRectF(x + 4, 1, 200, tickRow - 3), Qt::AlignLeft | Qt::AlignVCenter,
                     offsets && rel != firstRel
                         ? TimelinePainter::tr("+%1").arg(TimelineFormat::tick(rel - firstRel, step))
                         : TimelineFormat::tick(rel, step));
    }
    // Step chips in the lower half.
    if (s.store) {
        const auto& steps = s.store->steps();
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const models::trace::Step& st = steps[i];
            if (st.end < f.v0 || st.start > f.v1)
                continue;
            const double a = std::max(f.x0, f.xOf(st.start));
            const double b = std::min(f.x1, f.xOf(st.end));
            const QRectF chip(a + 1, tickRow + 2, std::max(1.0, b - a - 2), h - tickRow - 5);
            f.p.fillRect(chip, QColor::fromRgba(i % 2 ? f.chrome.chipA : f.chrome.chipB));
            if (chip.width() > 30) {
                f.p.setPen(QColor::fromRgba(f.chrome.chipText));
                f.p.drawText(chip.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                             f.fm.elidedText(TimelinePainter::tr("Step %1").arg(st.number), Qt::ElideRight,
                                             int(chip.width()) - 6));
            }
        }
    }
    // The selection's extent and duration.
    if (s.selection.valid()) {
        const double a = f.xOf(s.selection.start);
        const double b = f.xOf(s.selection.end);
        if (b >= f.x0 && a <= f.x1) {
            const QRectF bar(a, tickRow + 1, std::max(1.0, b - a), h - tickRow - 3);
            f.p.fillRect(bar, QColor::fromRgba(kSelection));
            const QString text = TimelineFormat::duration(s.selection.duration());
            const int tw = f.fm.horizontalAdvance(text) + 10;
            QRectF label(std::clamp((a + b) / 2 - tw / 2.0, f.x0, f.x1 - tw), tickRow + 1, tw, bar.height());
            if (bar.width() < tw)
                f.p.fillRect(label, QColor::fromRgba(kSelection));
            f.p.setPen(Qt::white);
            f.p.drawText(label, Qt::AlignCenter, text);
        }
    }
    // Over the selection bar, which would otherwise hide the matches inside it.
    if (f.dim)
        paintMatchTicks(f, h);
    f.p.restore();
    // Corner: the visible span.
    f.p.fillRect(QRectF(0, 0, f.x0, h), QColor::fromRgba(f.chrome.ruler));
    f.p.setPen(QColor::fromRgba(f.chrome.muted));
    f.p.drawText(QRectF(10, 0, f.x0 - 16, h), Qt::AlignVCenter | Qt::AlignLeft,
                 TimelinePainter::tr("Span %1").arg(TimelineFormat::duration(f.v1 - f.v0)));
    f.p.setPen(QColor::fromRgba(0xffd5dae0));
    f.p.drawLine(QPointF(0, h - 0.5), QPointF(f.width, h - 0.5));
    f.p.drawLine(QPointF(f.x0 - 0.5, 0), QPointF(f.x0 - 0.5, h));
}

} // namespace

double TimelinePainter::timeToX(const TimelinePaintState& state, int width, std::int64_t t)
{
    const double span = double(std::max<std::int64_t>(1, state.visible.duration()));
    return state.labelWidth + double(t - state.visible.start) * (width - state.labelWidth) / span;
}

std::int64_t TimelinePainter::xToTime(const TimelinePaintState& state, int width, double x)
{
    const double span = double(std::max<std::int64_t>(1, state.visible.duration()));
    const double w = std::max(1, width - state.labelWidth);
    return state.visible.start + std::int64_t(std::llround((x - state.labelWidth) * span / w));
}

const TimelineChrome& TimelineChrome::light()
{
    static const TimelineChrome chrome { 0xffffffff, 0xfff7f8fa, 0xffeef1f5, 0xffe2e6eb, 0xfffafbfc,
                                         0xffc4cad2, 0xff2b2f36, 0xff6b7380, 0xfff2f5f9, 0xfff4f6f9,
                                         0xffdfe5ee, 0xffd3dbe7, 0xff4b5563 };
    return chrome;
}

const TimelineChrome& TimelineChrome::dark()
{
    static const TimelineChrome chrome { 0xff202225, 0xff26292d, 0xff30343a, 0xff3a3e45, 0xff282b2f,
                                         0xff5a606a, 0xffdee0e4, 0xff9aa1ab, 0xff25282c, 0xff2a2d32,
                                         0xff3a4150, 0xff444c5c, 0xffc8ccd3 };
    return chrome;
}

TimelinePaintStats TimelinePainter::paint(QPainter& painter, const QSize& size, const TimelinePaintState& state)
{
    Frame f(painter, state, size);
    painter.fillRect(QRect(QPoint(0, 0), size), QColor::fromRgba(f.chrome.background));
    if (!state.store || !state.lod || !state.layout || state.layout->rows().empty() || f.x1 <= f.x0) {
        painter.setPen(QColor::fromRgba(f.chrome.muted));
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter,
                         state.emptyText.isEmpty() ? tr("No trace loaded") : state.emptyText);
        return f.stats;
    }
    f.column = QImage(int(f.x1 - f.x0), 1, QImage::Format_ARGB32_Premultiplied);
    f.column.fill(Qt::transparent);
    if (f.dim)
        f.caps = QImage(f.column.size(), QImage::Format_ARGB32_Premultiplied);

    painter.save();
    painter.setClipRect(QRectF(f.x0, f.top, f.x1 - f.x0, f.height - f.top));
    paintStepBands(f);
    paintGrid(f);
    paintStepLines(f);
    // Only rows that intersect the viewport: binary search the first, stop after the last.
    const auto& rows = state.layout->rows();
    int first = state.layout->rowAt(std::max(0, state.scrollY));
    if (first < 0)
        first = 0;
    for (std::size_t r = std::size_t(first); r < rows.size(); ++r) {
        const TimelineRow& row = rows[r];
        const int y = f.rowTop(row);
        if (y > f.height)
            break;
        if (y + row.height < f.top)
            continue;
        if (row.kind == TimelineRow::Slices)
            paintSliceTrack(f, row, y);
        else if (row.kind == TimelineRow::Counter)
            paintCounterTrack(f, row, y);
    }
    paintOverlays(f);
    paintSelectedSlice(f);
    paintFlows(f);
    painter.restore();

    painter.save();
    painter.setClipRect(QRectF(0, f.top, f.width, f.height - f.top));
    paintGutter(f);
    painter.restore();
    paintRuler(f);
    return f.stats;
}

} // namespace runlens::widgets::timeline
