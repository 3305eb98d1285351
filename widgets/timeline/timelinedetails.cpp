#include "widgets/timeline/timelinedetails.h"

#include "models/trace/launchindex.h"
#include "models/trace/tracestore.h"
#include "widgets/timeline/timelineformat.h"
#include "widgets/timeline/timelinelayout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <algorithm>

namespace runlens::widgets::timeline {

namespace {

QString row(const QString& key, const QString& value)
{
    return QStringLiteral("<tr><td style='color:#6b7380; padding-right:12px; white-space:nowrap'>%1</td>"
                          "<td>%2</td></tr>")
        .arg(key.toHtmlEscaped(), value);
}

QString jsonValueText(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Double: {
        const double d = value.toDouble();
        return QString::number(d, 'g', 15);
    }
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Undefined:
        break;
    }
    return {};
}

} // namespace

TimelineDetails::TimelineDetails(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, &TimelineDetails::openLink);
    showSlice(-1, -1);
}

TimelineDetails::~TimelineDetails() = default;

void TimelineDetails::setStore(std::shared_ptr<const models::trace::TraceStore> store)
{
    m_store = std::move(store);
    m_launches.reset();
    showSlice(-1, -1);
}

std::int64_t TimelineDetails::selfTime(const models::trace::TraceStore& store, int track, std::size_t index)
{
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    const std::int64_t s = t.start[index];
    const std::int64_t e = t.end(index);
    const int depth = t.depth[index] + 1;
    std::int64_t children = 0;
    // Slices are sorted by start; children start inside [s, e) right after the slice itself.
    for (std::size_t j = index + 1; j < t.size() && t.start[j] < e; ++j) {
        if (t.depth[j] != depth)
            continue;
        children += std::min(e, t.end(j)) - std::max(s, t.start[j]);
    }
    return std::max<std::int64_t>(0, t.duration[index] - children);
}

void TimelineDetails::showSlice(int track, std::int64_t index)
{
    m_track = -1;
    m_index = -1;
    if (!m_store || track < 0 || std::size_t(track) >= m_store->tracks().size() || index < 0
        || std::size_t(index) >= m_store->tracks()[std::size_t(track)].size()) {
        setHtml(QStringLiteral("<p style='color:#6b7380'>%1</p>")
                    .arg(tr("Click a slice to see its details.").toHtmlEscaped()));
        return;
    }
    m_track = track;
    m_index = index;
    const models::trace::TraceStore& store = *m_store;
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    const auto i = std::size_t(index);
    const auto& strings = store.strings();

    QString html = QStringLiteral("<h3 style='margin:2px 0 6px 0'>%1</h3><table cellspacing='0' cellpadding='1'>")
                       .arg(strings.text(t.name_[i]).toHtmlEscaped());
    const QString category = strings.text(t.category[i]);
    const QString kind = QString::fromLatin1(models::trace::eventKindId(t.kind[i]));
    html += row(tr("Category"),
                category.isEmpty() || category == kind
                    ? kind
                    : QStringLiteral("%1 <span style='color:#6b7380'>(%2)</span>").arg(category.toHtmlEscaped(), kind));
    html += row(tr("Start"), TimelineFormat::duration(t.start[i] - store.startTime()).toHtmlEscaped());
    if (t.flags[i] & models::trace::SliceFlag::Instant) {
        html += row(tr("Duration"), tr("instant").toHtmlEscaped());
    } else {
        html += row(tr("Duration"), TimelineFormat::duration(t.duration[i]).toHtmlEscaped());
        html += row(tr("Self time"), TimelineFormat::duration(selfTime(store, track, i)).toHtmlEscaped());
    }
    html += row(tr("Depth"), QString::number(t.depth[i]));
    html += row(tr("Thread"), TimelineLayout::trackLabel(store, track).toHtmlEscaped());
    if (t.process >= 0 && std::size_t(t.process) < store.processes().size())
        html += row(tr("Process"), TimelineLayout::processLabel(store, t.process).toHtmlEscaped());
    if (t.flags[i] & models::trace::SliceFlag::Unterminated)
        html += row(tr("Note"), tr("begin without end: runs to the end of the trace").toHtmlEscaped());
    if (t.flags[i] & models::trace::SliceFlag::AbsurdDuration)
        html += row(tr("Note"), tr("longer than 7 days: excluded from statistics").toHtmlEscaped());

    // Flows in and out: links to the other end.
    QString flows;
    for (const models::trace::Flow& flow : store.flows()) {
        const bool out = flow.fromTrack == track && flow.fromSlice == i;
        const bool in = flow.toTrack == track && flow.toSlice == i;
        if (!out && !in)
            continue;
        const int otherTrack = out ? flow.toTrack : flow.fromTrack;
        const std::uint32_t otherSlice = out ? flow.toSlice : flow.fromSlice;
        if (otherTrack < 0 || std::size_t(otherTrack) >= store.tracks().size()
            || otherSlice >= store.tracks()[std::size_t(otherTrack)].size())
            continue;
        const models::trace::Track& other = store.tracks()[std::size_t(otherTrack)];
        const QString link = QStringLiteral("<a href='slice:%1:%2'>%3</a>")
                                 .arg(otherTrack)
                                 .arg(otherSlice)
                                 .arg(strings.text(other.name_[otherSlice]).toHtmlEscaped());
        const QString where = TimelineLayout::trackLabel(store, otherTrack).toHtmlEscaped();
        const QString cat = strings.text(flow.category).toHtmlEscaped();
        flows += row(out ? tr("Flow out") : tr("Flow in"),
                     QStringLiteral("%1 <span style='color:#6b7380'>(%2%3)</span>")
                         .arg(link, where, cat.isEmpty() ? QString() : QStringLiteral(", ") + cat));
    }
    html += flows;
    html += launchRows(track, i);
    html += QStringLiteral("</table>");

    const std::string_view args = store.argsJson(track, i);
    if (!args.empty()) {
        QJsonParseError error;
        const QJsonDocument doc
            = QJsonDocument::fromJson(QByteArray::fromRawData(args.data(), qsizetype(args.size())), &error);
        html += QStringLiteral("<h4 style='margin:8px 0 2px 0'>%1</h4><table cellspacing='0' cellpadding='1'>")
                    .arg(tr("Arguments").toHtmlEscaped());
        if (doc.isObject()) {
            const QJsonObject object = doc.object();
            for (auto it = object.begin(); it != object.end(); ++it)
                html += row(it.key(), jsonValueText(it.value()).toHtmlEscaped());
        } else {
            html += row(tr("raw"), QString::fromUtf8(args.data(), qsizetype(args.size())).toHtmlEscaped());
        }
        html += QStringLiteral("</table>");
    }
    setHtml(html);
}

QString TimelineDetails::launchRows(int track, std::size_t index)
{
    const models::trace::TraceStore& store = *m_store;
    if (store.flows().empty())
        return {};
    if (!m_launches)
        m_launches = std::make_unique<models::trace::LaunchIndex>(store);
    const auto& strings = store.strings();
    auto link = [&](int t, std::uint32_t slice) {
        const models::trace::Track& other = store.tracks()[std::size_t(t)];
        return QStringLiteral("<a href='slice:%1:%2'>%3</a> <span style='color:#6b7380'>(%4, %5)</span>")
            .arg(t)
            .arg(slice)
            .arg(strings.text(other.name_[slice]).toHtmlEscaped(), TimelineLayout::trackLabel(store, t).toHtmlEscaped(),
                 TimelineFormat::duration(other.duration[slice]).toHtmlEscaped());
    };
    const models::trace::Track& t = store.tracks()[std::size_t(track)];
    if (const auto* launcher = m_launches->launcherOf(track, std::uint32_t(index)))
        return row(tr("Launched by"), link(launcher->hostTrack, launcher->hostSlice));
    // Host slice: the device work launched anywhere in its subtree (children follow it in start order).
    const std::int64_t end = t.end(index);
    const auto subtreeEnd = std::size_t(
        std::lower_bound(t.start.begin() + std::ptrdiff_t(index) + 1, t.start.end(), end) - t.start.begin());
    const auto& all = m_launches->launches();
    auto it
        = std::lower_bound(all.begin(), all.end(), std::pair(track, std::uint32_t(index)),
                           [](const models::trace::LaunchIndex::Launch& l, const std::pair<int, std::uint32_t>& key) {
                               return std::pair(l.hostTrack, l.hostSlice) < key;
                           });
    constexpr int kShown = 12;
    QStringList items;
    int total = 0;
    for (; it != all.end() && it->hostTrack == track && it->hostSlice < subtreeEnd; ++it) {
        if (t.depth[it->hostSlice] < t.depth[index]
            || (it->hostSlice != index && t.depth[it->hostSlice] == t.depth[index]))
            continue;
        if (total++ < kShown)
            items << link(it->deviceTrack, it->deviceSlice);
    }
    if (total == 0)
        return {};
    if (total > kShown)
        items << tr("… and %n more", nullptr, total - kShown).toHtmlEscaped();
    return row(tr("Launched"), items.join(QStringLiteral("<br>")));
}

void TimelineDetails::openLink(const QUrl& url)
{
    // slice:<track>:<index>
    const QStringList parts = url.toString().split(QLatin1Char(':'));
    if (parts.size() != 3 || parts[0] != QLatin1String("slice"))
        return;
    bool okTrack = false;
    bool okIndex = false;
    const int track = parts[1].toInt(&okTrack);
    const qint64 index = parts[2].toLongLong(&okIndex);
    if (okTrack && okIndex)
        emit jumpToSlice(track, index);
}

} // namespace runlens::widgets::timeline
