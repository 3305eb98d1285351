#include "app/comparedumpsdialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace runlens::app {

CompareDumpsDialog::CompareDumpsDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Compare Dumps"));
    auto* form = new QFormLayout(this);
    m_bench = addRow(form, tr("Bench (reference):"), true);
    m_target = addRow(form, tr("Target (compared):"), true);
    m_mapping = addRow(form, tr("Mapping file (optional):"), false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_bench, &QLineEdit::textChanged, this, &CompareDumpsDialog::updateOk);
    connect(m_target, &QLineEdit::textChanged, this, &CompareDumpsDialog::updateOk);
    resize(640, sizeHint().height());
    updateOk();
}

QLineEdit* CompareDumpsDialog::addRow(QFormLayout* form, const QString& label, bool dumps)
{
    auto* row = new QHBoxLayout;
    auto* edit = new QLineEdit(this);
    row->addWidget(edit, 1);
    const auto start
        = [edit] { return edit->text().isEmpty() ? QDir::homePath() : QFileInfo(edit->text()).absolutePath(); };
    if (dumps) {
        // A dump is a folder (msprobe, step_N) or one checkpoint file.
        auto* folder = new QToolButton(this);
        folder->setText(tr("Folder…"));
        connect(folder, &QToolButton::clicked, this, [this, edit, start, label] {
            const QString dir = QFileDialog::getExistingDirectory(this, label, start());
            if (!dir.isEmpty())
                edit->setText(QDir::toNativeSeparators(dir));
        });
        row->addWidget(folder);
    }
    auto* file = new QToolButton(this);
    file->setText(tr("File…"));
    connect(file, &QToolButton::clicked, this, [this, edit, start, label, dumps] {
        const QString name = QFileDialog::getOpenFileName(
            this, label, start(), dumps ? QString() : tr("Mapping files (*.json *.yaml *.yml);;All files (*)"));
        if (!name.isEmpty())
            edit->setText(QDir::toNativeSeparators(name));
    });
    row->addWidget(file);
    form->addRow(label, row);
    return edit;
}

void CompareDumpsDialog::updateOk()
{
    m_ok->setEnabled(!bench().isEmpty() && !target().isEmpty());
}

void CompareDumpsDialog::setBench(const QString& path)
{
    m_bench->setText(QDir::toNativeSeparators(path));
}

void CompareDumpsDialog::setTarget(const QString& path)
{
    m_target->setText(QDir::toNativeSeparators(path));
}

QString CompareDumpsDialog::bench() const
{
    return QDir::fromNativeSeparators(m_bench->text().trimmed());
}

QString CompareDumpsDialog::target() const
{
    return QDir::fromNativeSeparators(m_target->text().trimmed());
}

QString CompareDumpsDialog::mapping() const
{
    return QDir::fromNativeSeparators(m_mapping->text().trimmed());
}

} // namespace runlens::app
