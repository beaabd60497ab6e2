"""Small synthetic subjects: Markdown files the offline extractor can read into a real map.

Each file has the furniture a real chapter has (a title, "Introduction", "Summary"), one
heading per concept, a definitional first sentence ("X is …", "La X es …", "X adalah …") and,
where a concept needs another, a prerequisite sentence ("It builds on Y.", "Se basa en la Y.",
"Konsep ini dibangun di atas Y."). The edges the benchmark grades against are the ones the
extractor actually put on the stored map, never these intentions: ``intended`` is kept only to
diagnose the extractor when the two differ.

The sample subject (cell biology, shipped with the package) is a subject too: its files are
real, so one subject's map is not of our making at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tutor_memory.samples import sample_subject


@dataclass(frozen=True)
class Concept:
    name: str
    gist: str  # the definitional sentence
    extra: str = ""  # a second sentence of the section
    needs: tuple[str, ...] = ()  # stated prerequisites (names of earlier concepts)


@dataclass(frozen=True)
class SubjectFile:
    name: str
    title: str
    concepts: tuple[Concept, ...]


@dataclass(frozen=True)
class Subject:
    subject_id: str
    language: str  # the language of the material
    files: tuple[SubjectFile, ...]
    # Languages students of this subject write in (the material's, and others).
    student_languages: tuple[str, ...]

    def concept_names(self) -> list[str]:
        return [c.name for f in self.files for c in f.concepts]

    def intended(self) -> dict[str, tuple[str, ...]]:
        return {c.name: c.needs for f in self.files for c in f.concepts}

    def file_bytes(self) -> list[tuple[str, bytes]]:
        if self.subject_id == SAMPLE_SUBJECT_ID:
            return sample_subject()
        return [(f.name, render(f, self.language).encode()) for f in self.files]


# The prerequisite sentence and the furniture, per material language.
_NEEDS: Final = {
    "en": "It builds on {y}.",
    "es": "Se basa en {y}.",
    "id": "Konsep ini dibangun di atas {y}.",
}
_FURNITURE: Final = {
    "en": ("Introduction", "This chapter introduces the ideas below, one at a time.", "Summary"),
    "es": ("Introducción", "Este capítulo presenta las ideas siguientes, una por una.", "Resumen"),
    "id": ("Pendahuluan", "Bab ini memperkenalkan gagasan berikut satu per satu.", "Ringkasan"),
}


def render(file: SubjectFile, language: str) -> str:
    intro, intro_text, summary = _FURNITURE[language]
    parts = [f"# {file.title}", "", f"## {intro}", "", intro_text, ""]
    for c in file.concepts:
        body = " ".join(s for s in (c.gist, c.extra) if s)
        needs = " ".join(_NEEDS[language].format(y=_lower(y, language)) for y in c.needs)
        parts += [f"## {c.name}", "", f"{body} {needs}".strip(), ""]
    names = ", ".join(c.name for c in file.concepts)
    parts += [f"## {summary}", "", names + ".", ""]
    return "\n".join(parts)


def _lower(name: str, language: str) -> str:
    return name[:1].lower() + name[1:] if language in ("en", "es", "id") else name


SAMPLE_SUBJECT_ID: Final = "cells"

CELLS = Subject(
    SAMPLE_SUBJECT_ID,
    "en",
    # The files are the package's sample subject (real files, not rendered here); these
    # concepts repeat what it explains, so that the tutor's answers can quote it.
    (
        SubjectFile(
            "cell-biology.pdf",
            "Cell biology",
            (
                Concept(
                    "Cell",
                    "A cell is the smallest unit of life that can carry out all the processes "
                    "of life on its own.",
                ),
                Concept("Nucleus", "The nucleus is the control centre of the cell."),
                Concept(
                    "Cell membrane",
                    "The cell membrane is the thin, flexible layer that surrounds every cell.",
                    needs=("Cell",),
                ),
                Concept(
                    "Cytoplasm",
                    "Cytoplasm is the jelly-like fluid that fills the cell inside the cell "
                    "membrane.",
                    needs=("Cell membrane",),
                ),
                Concept(
                    "Mitochondria",
                    "Mitochondria are organelles in the cytoplasm that release energy from "
                    "glucose.",
                    needs=("Cytoplasm",),
                ),
                Concept(
                    "Ribosomes",
                    "Ribosomes are tiny structures in the cytoplasm where proteins are made.",
                    needs=("Cytoplasm",),
                ),
                Concept(
                    "Osmosis",
                    "Osmosis is the movement of water across a partially permeable membrane, "
                    "from a dilute solution to a more concentrated one.",
                    needs=("Cell membrane",),
                ),
                Concept(
                    "Active transport",
                    "Active transport is the movement of particles through the cell membrane "
                    "against a concentration gradient.",
                    needs=("Mitochondria",),
                ),
            ),
        ),
        SubjectFile(
            "plant-and-animal-cells.md",
            "Plant and animal cells",
            (
                Concept(
                    "Eukaryotic cells",
                    "Eukaryotic cells are cells that keep their genetic material inside a nucleus.",
                    needs=("Nucleus",),
                ),
                Concept(
                    "Prokaryotic cells",
                    "Prokaryotic cells are cells with no nucleus: their DNA lies free in the cell.",
                    needs=("Nucleus",),
                ),
                Concept(
                    "Cell wall",
                    "The cell wall is a rigid layer of cellulose outside the cell membrane of "
                    "plant cells.",
                    needs=("Cell membrane",),
                ),
                Concept(
                    "Chloroplast",
                    "A chloroplast is an organelle in plant cells where photosynthesis takes "
                    "place.",
                ),
                Concept(
                    "Photosynthesis",
                    "Photosynthesis is the process in which plants use light energy to make "
                    "glucose from carbon dioxide and water.",
                    needs=("Chloroplast",),
                ),
            ),
        ),
    ),
    ("en", "ur", "ar", "es"),
)

CHEMISTRY = Subject(
    "chemistry",
    "en",
    (
        SubjectFile(
            "atoms-and-elements.md",
            "Unit 1: Atoms and elements",
            (
                Concept(
                    "Atom",
                    "An atom is the smallest particle of matter that keeps its chemical "
                    "properties.",
                    "Everything around us is made of atoms.",
                ),
                Concept(
                    "Proton",
                    "A proton is a positively charged particle in the centre of an atom.",
                ),
                Concept(
                    "Neutron",
                    "A neutron is a particle with no charge that sits beside the protons.",
                    needs=("Atom",),
                ),
                Concept(
                    "Electron",
                    "An electron is a tiny negatively charged particle that moves around an atom.",
                ),
                Concept(
                    "Element",
                    "An element is a substance whose atoms all have the same number of protons.",
                    needs=("Proton",),
                ),
                Concept(
                    "Isotopes",
                    "Isotopes are forms of one element with different numbers of neutrons.",
                    needs=("Neutron",),
                ),
                Concept(
                    "Ion",
                    "An ion is an atom that has gained or lost an electron.",
                ),
                Concept(
                    "Periodic table",
                    "The periodic table is a chart that orders every element by its number of "
                    "protons.",
                ),
            ),
        ),
        SubjectFile(
            "bonds-and-reactions.md",
            "Unit 2: Bonds and reactions",
            (
                Concept(
                    "Chemical bond",
                    "A chemical bond is a force that holds atoms together.",
                    needs=("Electron",),
                ),
                Concept(
                    "Ionic bond",
                    "An ionic bond is a chemical bond between two ions of opposite charge.",
                    needs=("Ion",),
                ),
                Concept(
                    "Covalent bond",
                    "A covalent bond is a chemical bond in which two atoms share a pair of "
                    "electrons.",
                ),
                Concept(
                    "Molecule",
                    "A molecule is a group of atoms held together by shared electrons.",
                    needs=("Covalent bond",),
                ),
                Concept(
                    "Compound",
                    "A compound is a substance made of two or more elements joined by a "
                    "chemical bond.",
                    needs=("Element",),
                ),
                Concept(
                    "Chemical reaction",
                    "A chemical reaction is a process that turns reactants into new products.",
                    needs=("Compound",),
                ),
                Concept(
                    "Activation energy",
                    "Activation energy is the smallest amount of energy a chemical reaction "
                    "needs to start.",
                ),
                Concept(
                    "Catalyst",
                    "A catalyst is a substance that speeds up a chemical reaction by lowering "
                    "the activation energy.",
                ),
            ),
        ),
    ),
    ("en", "ar", "ur", "id"),
)

PHYSICS = Subject(
    "fisica",
    "es",
    (
        SubjectFile(
            "movimiento.md",
            "Tema 1: El movimiento",
            (
                Concept(
                    "Distancia",
                    "La distancia es la longitud del camino que recorre un objeto.",
                ),
                Concept(
                    "Velocidad",
                    "La velocidad es la distancia que recorre un objeto en cada segundo.",
                ),
                Concept(
                    "Aceleración",
                    "La aceleración es el cambio de la velocidad en cada segundo.",
                ),
                Concept(
                    "Masa",
                    "La masa es la cantidad de materia que tiene un objeto.",
                ),
                Concept(
                    "Inercia",
                    "La inercia es la tendencia de un objeto a conservar su movimiento.",
                    needs=("Masa",),
                ),
                Concept(
                    "Fuerza",
                    "La fuerza es una acción que cambia el movimiento de un objeto.",
                    needs=("Aceleración",),
                ),
            ),
        ),
        SubjectFile(
            "energia.md",
            "Tema 2: La energía",
            (
                Concept(
                    "Gravedad",
                    "La gravedad es la atracción entre dos objetos que tienen masa.",
                    needs=("Masa",),
                ),
                Concept(
                    "Peso",
                    "El peso es la atracción de la gravedad sobre un objeto.",
                    needs=("Fuerza",),
                ),
                Concept(
                    "Trabajo",
                    "El trabajo es la energía que transfiere una fuerza al mover un objeto.",
                ),
                Concept(
                    "Energía cinética",
                    "La energía cinética es la energía que tiene un objeto por su movimiento.",
                    needs=("Velocidad",),
                ),
                Concept(
                    "Energía potencial",
                    "La energía potencial es la energía que tiene un objeto por su altura.",
                    needs=("Peso",),
                ),
                Concept(
                    "Potencia",
                    "La potencia es el trabajo realizado en cada segundo.",
                ),
            ),
        ),
    ),
    ("es", "es", "en", "id"),
)

ECOLOGY = Subject(
    "ekologi",
    "id",
    (
        SubjectFile(
            "ekosistem.md",
            "Bab 1: Ekosistem",
            (
                Concept(
                    "Ekosistem",
                    "Ekosistem adalah kesatuan makhluk hidup dan lingkungannya.",
                ),
                Concept(
                    "Fotosintesis",
                    "Fotosintesis adalah proses tumbuhan membuat glukosa dengan bantuan cahaya.",
                ),
                Concept(
                    "Produsen",
                    "Produsen adalah makhluk hidup yang membuat makanannya sendiri lewat "
                    "fotosintesis.",
                ),
                Concept(
                    "Konsumen",
                    "Konsumen adalah makhluk hidup yang memakan makhluk hidup lain.",
                    needs=("Produsen",),
                ),
                Concept(
                    "Pengurai",
                    "Pengurai adalah makhluk hidup yang menguraikan sisa makhluk hidup yang mati.",
                ),
                Concept(
                    "Rantai makanan",
                    "Rantai makanan adalah urutan makan dan dimakan dari produsen ke konsumen.",
                ),
                Concept(
                    "Jaring makanan",
                    "Jaring makanan adalah gabungan beberapa rantai makanan yang saling terhubung.",
                ),
            ),
        ),
        SubjectFile(
            "aliran-energi.md",
            "Bab 2: Aliran energi",
            (
                Concept(
                    "Tingkat trofik",
                    "Tingkat trofik adalah kedudukan makhluk hidup dalam rantai makanan.",
                    needs=("Rantai makanan",),
                ),
                Concept(
                    "Piramida energi",
                    "Piramida energi adalah gambaran jumlah energi pada setiap tingkat trofik.",
                ),
                Concept(
                    "Siklus karbon",
                    "Siklus karbon adalah perputaran karbon antara makhluk hidup dan lingkungan.",
                    needs=("Fotosintesis",),
                ),
                Concept(
                    "Suksesi",
                    "Suksesi adalah perubahan ekosistem secara bertahap dalam waktu lama.",
                    needs=("Ekosistem",),
                ),
            ),
        ),
    ),
    ("id", "id", "en", "ar"),
)

SUBJECTS: Final = (CELLS, CHEMISTRY, PHYSICS, ECOLOGY)
