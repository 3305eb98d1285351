#pragma once

#include <QString>

namespace runlens::app {

/// A run folder's notes: a Markdown text kept in the user's data folder under a name derived from the
/// folder's absolute path (`<AppDataLocation>/notes/<sha1>.md`), never inside the run folder, which stays
/// untouched.
class RunNotes final
{
public:
    /// Where the notes of every run are kept.
    static QString notesFolder();
    /// The notes file of a run folder (whether or not it exists).
    static QString pathFor(const QString& runFolder);
    /// The notes of a run folder; empty when there are none. A file that cannot be read gives an empty
    /// text and, in `error`, what failed.
    static QString load(const QString& runFolder, QString* error = nullptr);
    /// Writes the notes atomically (a crash leaves the old ones); empty notes remove the file.
    static bool save(const QString& runFolder, const QString& text, QString* error = nullptr);
};

} // namespace runlens::app
