#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <cstdint>

namespace runlens::app {

/// How one run folder was being looked at: the panels' view settings and ranges, the docks, the expanded
/// graph groups and the tensor in the inspector. Kept in the user's settings under a key derived from the
/// folder's absolute path (never in the folder), so reopening a folder brings its view back.
struct RunView
{
    QByteArray dockState; ///< QMainWindow::saveState
    QVariantMap scalars; ///< ScalarsPanel::saveState
    QVariantMap scalarRanges; ///< ScalarsPanel::xRanges
    std::int64_t timelineStart = 0; ///< the Timeline's visible range in trace ns; end < start: none
    std::int64_t timelineEnd = -1;
    QString graphPath; ///< the graph shown, and its expanded groups
    QStringList expandedGroups;
    QString tensor; ///< TensorPanel::currentLocation
    QStringList frontDocks; ///< object names of the docks the user put in front, the latest first
    QVariantMap projector; ///< ProjectorPanel::saveState (2-D or 3-D, sprites)

    bool hasTimelineRange() const { return timelineEnd > timelineStart; }
    bool isEmpty() const;
    bool operator==(const RunView&) const = default;

    /// The view saved for `folder`; empty when there is none.
    static RunView load(const QString& folder);
    void save(const QString& folder) const;
    /// Forgets the view saved for `folder`.
    static void remove(const QString& folder);
    /// The settings group of a folder's view: "sessions/runs/<sha1 of the absolute path>".
    static QString settingsGroup(const QString& folder);
};

/// The last session: the run folders that were open and the window around them. Saved when the window
/// closes or another folder is opened; File > Reopen Last Session and the start without a path read it.
struct Session
{
    QStringList folders; ///< absolute paths, the one in front first
    QByteArray geometry; ///< QWidget::saveGeometry
    QByteArray dockState; ///< QMainWindow::saveState

    bool isEmpty() const { return folders.isEmpty(); }
    bool operator==(const Session&) const = default;

    static Session loadLast();
    void saveAsLast() const;
};

} // namespace runlens::app
