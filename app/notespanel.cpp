#include "app/notespanel.h"

#include "app/runnotes.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStackedLayout>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace runlens::app {

NotesPanel::NotesPanel(QWidget* parent)
    : QWidget(parent)
    , m_previewButton(new QToolButton(this))
    , m_location(new QLabel(this))
    , m_editor(new QPlainTextEdit(this))
    , m_preview(new QTextBrowser(this))
    , m_saveTimer(new QTimer(this))
{
    m_previewButton->setText(tr("Preview"));
    m_previewButton->setCheckable(true);
    m_previewButton->setToolTip(tr("Show the notes rendered as Markdown (click again to edit)"));
    m_location->setForegroundRole(QPalette::PlaceholderText);
    m_location->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_editor->setPlaceholderText(tr("Notes about this run, in Markdown: what changed, what you saw, what to try "
                                    "next. They are kept in your settings folder, not in the run folder."));
    m_editor->setTabChangesFocus(true);
    m_preview->setOpenExternalLinks(true);
    m_saveTimer->setSingleShot(true);
    m_saveTimer->setInterval(kSaveDelayMs);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 4);
    bar->addWidget(m_location, 1);
    bar->addWidget(m_previewButton);
    auto* stack = new QStackedLayout;
    stack->addWidget(m_editor);
    stack->addWidget(m_preview);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addLayout(stack, 1);

    connect(m_previewButton, &QToolButton::toggled, this, [this, stack](bool on) {
        if (on)
            updatePreview();
        stack->setCurrentIndex(on ? 1 : 0);
    });
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading || m_folder.isEmpty())
            return;
        m_dirty = true;
        m_saveTimer->start();
    });
    connect(m_saveTimer, &QTimer::timeout, this, &NotesPanel::save);
    setFolder({});
}

NotesPanel::~NotesPanel()
{
    save();
}

void NotesPanel::setFolder(const QString& folder)
{
    save();
    m_folder = folder.isEmpty() ? QString() : QFileInfo(folder).absoluteFilePath();
    QString error;
    const QString text = m_folder.isEmpty() ? QString() : RunNotes::load(m_folder, &error);
    m_loading = true;
    m_editor->setPlainText(text);
    m_loading = false;
    m_dirty = false;
    m_editor->setEnabled(!m_folder.isEmpty());
    m_previewButton->setEnabled(!m_folder.isEmpty());
    m_location->setText(m_folder.isEmpty() ? tr("Open a run folder to write notes about it.")
                                           : QDir::toNativeSeparators(m_folder));
    m_location->setToolTip(
        m_folder.isEmpty() ? QString() : tr("Saved in %1").arg(QDir::toNativeSeparators(RunNotes::pathFor(m_folder))));
    if (isPreview())
        updatePreview();
    if (!error.isEmpty())
        emit saveFailed(error);
}

QString NotesPanel::text() const
{
    return m_editor->toPlainText();
}

void NotesPanel::setText(const QString& text)
{
    m_editor->setPlainText(text);
    if (isPreview())
        updatePreview();
}

void NotesPanel::setPreview(bool preview)
{
    m_previewButton->setChecked(preview);
}

bool NotesPanel::isPreview() const
{
    return m_previewButton->isChecked();
}

QString NotesPanel::previewPlainText() const
{
    return m_preview->document()->toPlainText();
}

bool NotesPanel::save()
{
    m_saveTimer->stop();
    if (!m_dirty || m_folder.isEmpty())
        return true;
    QString error;
    if (!RunNotes::save(m_folder, m_editor->toPlainText(), &error)) {
        emit saveFailed(error);
        return false;
    }
    m_dirty = false;
    return true;
}

void NotesPanel::updatePreview()
{
    m_preview->document()->setMarkdown(m_editor->toPlainText());
}

} // namespace runlens::app
