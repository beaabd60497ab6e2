"""Indonesian (id): see ``languages.base.Language`` for what each field is."""

from __future__ import annotations

from typing import Final

from tutor_memory.domain.languages.base import Language, snowball
from tutor_memory.domain.languages.base import phrases as _phrases
from tutor_memory.domain.languages.base import words as _words

ID: Final = Language(
    code="id",
    name="Indonesian",
    script="latin",
    script_default=False,
    stopword_source=(
        "Snowball's Indonesian list, https://snowballstem.org/algorithms/indonesian/stop.txt (BSD)"
    ),
    stem=snowball("indonesian"),
    # --- Stopwords and the analyser ---
    stopwords=_words(
        "yang dan di dari ini pada kepada ada adalah dengan untuk dalam oleh sebagai juga ke "
        "atau tidak itu sebuah tersebut dapat ia telah satu memiliki mereka bahwa lebih karena "
        "seorang akan seperti secara kemudian beberapa banyak antara setelah yaitu hanya "
        "hingga serta sama dia tetapi namun melalui bisa sehingga ketika suatu sendiri bagi "
        "semua harus setiap maka maupun tanpa saja jika bukan belum sedangkan yakni meskipun "
        "hampir kita demikian daripada apa ialah sana begitu seseorang selain terlalu ataupun "
        "saya bila bagaimana tapi apabila kalau kami melainkan boleh aku anda kamu beliau "
        "kalian"
    ),
    # Question words, auxiliaries of aspect, copula, two prepositions and the chat particles
    # (sih, kok, dong, deh) and the typed abbreviation yg.
    stopword_additions=_words(
        "apakah mengapa kenapa kapan siapa berapa mana dimana kemana darimana gimana engkau "
        "kau sudah sedang pernah masih merupakan tentang terhadap pun sih kok dong deh yg"
    ),
    stopword_exceptions=frozenset(),
    asking_words=_words(
        "jelaskan tolong arti maksud maksudnya beda bedanya perbedaan paham mengerti bantu "
        "ingatkan ringkas belajar pelajari mempelajari bahas membahas dibahas"
    ),
    stopword_proclitics=frozenset(),
    # --- Language detection ---
    detection_markers=_words(
        "apa itu yang dan di ke dari adalah ini bagaimana mengapa kenapa tidak dengan untuk "
        "saya kita kami aku kamu pada dalam bisa juga akan sudah ada atau seperti tentang "
        "antara perbedaan apakah siapa kapan dimana berapa karena oleh sebagai tolong jelaskan"
    ),
    latin_markers=frozenset(),
    own_letters=frozenset(),
    vote_letters=frozenset(),
    # --- Time: relative phrases and month names ---
    relative_phrases={
        "today": ("hari ini",),
        "yesterday": ("kemarin", "kemaren"),
        "day_before_yesterday": ("kemarin lusa", "dua hari lalu", "dua hari yang lalu"),
        "this_week": ("minggu ini", "pekan ini"),
        "last_week": (
            "minggu lalu",
            "pekan lalu",
            "minggu kemarin",
            "minggu kemaren",  # the everyday spelling, as "kemaren" for yesterday
            "pekan kemarin",
            "pekan kemaren",
            "minggu sebelumnya",
            "seminggu lalu",
            "seminggu yang lalu",
        ),
        "this_month": ("bulan ini",),
        "last_month": (
            "bulan lalu",
            "bulan kemarin",
            "bulan kemaren",
            "bulan sebelumnya",
            "sebulan lalu",
            "sebulan yang lalu",
        ),
        "days_ago_3": ("tiga hari lalu", "tiga hari yang lalu", "3 hari lalu"),
        "weeks_ago_2": (
            "dua minggu lalu",
            "dua minggu yang lalu",
            "2 minggu lalu",
            "dua pekan lalu",
        ),
        "weeks_ago_3": ("tiga minggu lalu", "tiga minggu yang lalu", "3 minggu lalu"),
        "months_ago_2": ("dua bulan lalu", "dua bulan yang lalu", "2 bulan lalu"),
        "months_ago_3": ("tiga bulan lalu", "tiga bulan yang lalu", "3 bulan lalu"),
    },
    not_a_time=(),
    counts_before_relative=_words(
        "dua tiga empat lima enam tujuh delapan sembilan sepuluh sebelas beberapa"
    ),
    both_ways_days=frozenset(),
    future_markers=frozenset(),
    # a plan in the past (plandates)
    past_markers=_words("sudah udah telah tadi barusan kemarin kemaren"),
    total_nouns=frozenset(),
    today_blockers=frozenset(),
    month_locales=("id",),
    ambiguous_month_words=frozenset(),
    own_month_words=frozenset(),
    excluded_month_words=frozenset(),
    month_cues_before=_words("pada selama sejak hingga sampai bulan awal akhir pertengahan"),
    month_cues_after=_words("lalu"),
    last_words=_words("lalu kemarin kemaren"),
    next_words=_words("depan mendatang"),
    year_connectors=_words("tahun"),
    # --- Time: does a question ask about a time? ---
    time_question_cues={
        "fillers": _phrases(
            "dan, terus, trus, jadi, oke, ok, kak, kakak, pak, bu, halo, hai, eh, nah, sih, ya, "
            "lalu, nah, maaf, min"
        ),
        "openers": _phrases(
            "apa, apakah, mana, yang mana, bagaimana, gimana, kapan, kenapa, mengapa, siapa, "
            "berapa, bisa, bisakah, boleh, tolong, coba, ingatkan, rangkum, rangkumkan, ringkas, "
            "ringkaskan, ceritakan, sebutkan, jelaskan, kasih tahu, kasih tau, beritahu, beri "
            "tahu, saya lupa, aku lupa, lupa, saya ingin tahu, aku mau tahu, buatkan, buat, "
            "kasih, berikan, tunjukkan, sebutin"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases(
            "ingatkan, saya lupa, aku lupa, gak ingat, tidak ingat, nggak ingat, rangkum, "
            "rangkumkan, mau tahu, ingin tahu, pengen tahu, mau tau, pengen tau"
        ),
        "ellipsis": _phrases(
            "kalau, kalo, bagaimana dengan, gimana dengan, yang, di, pada, selama, tentang, "
            "bulan, apa, terus, dan"
        ),
        "recall": _phrases(
            "kita pelajari, kita belajar, kita bahas, kita membahas, kita mempelajari, kita "
            "kerjakan, kita lakukan, kita ulas, kita diskusikan, kita latihan, kita sudah, sudah "
            "kita, kita udah, udah kita, kami pelajari, kami belajar, dibahas, dipelajari, "
            "diajarkan, kamu ajarkan, yang kamu jelaskan, yang kamu bilang, yang kamu katakan, "
            "yang kamu ajarin, yang kakak jelaskan, yang kakak ajarkan, yang kakak bilang, "
            "ingatkan, rangkum, rangkumkan, ringkas, ringkasan, materi, "
            "pelajaran, topik, sesi, bahasan, salah, kesalahan, sampai mana, kita selesaikan"
        ),
        "study": _phrases(
            "belajar, pelajari, mempelajari, bahas, membahas, kerjakan, mengerjakan, latihan, "
            "ulang, mengulang, ajarkan"
        ),
        "topic": _phrases(
            "jelaskan, jelasin, apa itu, artinya, arti, maksudnya, bantu, bantuin, definisi"
        ),
        "plan": _phrases(
            "akan, mau, harus, perlu, nanti, sebaiknya, bisa kita, boleh kita, ayo, mari, bakal, "
            "besok"
        ),
        "past": _phrases("sudah, udah, telah, tadi, pernah, sempat"),
        "clause_breaks": _phrases(
            "karena, karna, soalnya, tapi, tetapi, namun, jadi, sehingga, padahal, walaupun, "
            "meskipun"
        ),
    },
    verb_question_words=frozenset(),
    verb_question_auxiliaries=frozenset(),
    bounds_before={
        "since": _phrases("sejak, semenjak, mulai"),
        "after": _phrases("setelah, sesudah"),
        "before": _phrases("sebelum"),
        "until": _phrases("sampai, hingga, per"),
    },
    bounds_after={},
    time_proclitics="",
    # --- Teaching phrases ---
    teaching_remember=(
        "ingat bahwa",
        "ingatlah bahwa",
        "ingat ya bahwa",
        "harap diingat bahwa",
        "mohon diingat bahwa",
        "perlu diingat bahwa",
        "jangan lupa bahwa",
        "catat bahwa",
        "diingat bahwa",
    ),
    teaching_that_with_pronoun=frozenset(),
    teaching_treat=("anggap", "anggaplah", "anggap saja", "perlakukan"),
    teaching_treat_as=_words("sebagai"),
    treat_as_optional=False,
    object_markers=frozenset(),
    treat_verbs_after=frozenset(),
    naming_verbs_after=frozenset(),
    treat_manner_words=frozenset(),
    genitives=frozenset(),
    teaching_lead_ins=(
        "tolong",
        "mohon",
        "ok",
        "oke",
        "nah",
        "dan",
        "juga",
        "sekarang",
        "hei",
        "eh",
    ),
    teaching_question_openers=(
        "apa",
        "apakah",
        "siapa",
        "kapan",
        "di mana",
        "dimana",
        "bagaimana",
        "gimana",
        "mengapa",
        "kenapa",
        "berapa",
        "masih ingat",
        "ingatkah",
        "tahukah",
        "bisakah",
    ),
    teaching_naming=(
        "kami sebut",
        "kita sebut",
        "kami menyebut",
        "kita menyebut",
        "kami namakan",
        "kita namakan",
        "kami menamakan",
        "kita menamai",
        # "ingat bahwa guru kami menyebut X sebagai Y" (teaching_namers with their verb)
        "guru kami menyebut",
        "guru kita menyebut",
        "guru saya menyebut",
        "guruku menyebut",
        "bu guru menyebut",
        "pak guru menyebut",
        "buku paket menyebut",
    ),
    teaching_same_as=(
        "adalah sama dengan",
        "sama dengan",
        "sama saja dengan",
        "sama artinya dengan",
    ),
    teaching_means=(
        "berarti",
        "artinya",
        "disebut",
        "dinamakan",
        "juga disebut",
        "dikenal sebagai",
    ),
    same_as_joins=frozenset(),
    same_as_endings=(),
    teaching_articles=_words("si sang para"),
    teaching_name_ends=_words("sebagai adalah yaitu yakni ialah merupakan dengan itu"),
    definite_article="",
    teaching_frames=("di kelas kami", "di kelas kita", "di kelas ini", "di kelas saya"),
    teaching_namers=(
        "guru kami",
        "guru kita",
        "guru saya",
        "guruku",
        "bu guru",
        "pak guru",
        "buku kami",
        "buku paket",
    ),
    noun_phrase_verb_endings=(),
    noun_phrase_noun_endings=(),
    noun_phrase_adjective_endings=(),
    noun_phrase_verb_prefixes=("me", "ber", "di", "ter"),
    # --- Document furniture and reading structure ---
    section_headings=_phrases(
        "pendahuluan, pengantar, ringkasan, rangkuman, ikhtisar, kesimpulan, latihan, "
        "latihan soal, soal latihan, uji kompetensi, evaluasi, pertanyaan, jawaban, "
        "miskonsepsi umum, miskonsepsi, kesalahpahaman umum, kesalahan umum, istilah penting, "
        "kata kunci, glosarium, kosakata, daftar istilah, tujuan pembelajaran, "
        "capaian pembelajaran, "
        "daftar isi, daftar pustaka, referensi, bacaan lanjutan, contoh soal, kata pengantar, "
        "ucapan terima kasih"
    ),
    glossary_headings=_phrases("glosarium, daftar istilah, istilah penting, kosakata"),
    glossary_term_columns=_phrases("istilah, kata, konsep, nama"),
    glossary_definition_columns=_phrases(
        "definisi, pengertian, arti, makna, penjelasan, keterangan"
    ),
    numbered_headings=_words(
        "bab unit pelajaran bagian subbab lampiran modul minggu pertemuan topik kegiatan "
        "aktivitas latihan contoh gambar tabel praktikum soal langkah"
    ),
    number_words=_words(
        "satu dua tiga empat lima enam tujuh delapan sembilan sepuluh pertama kedua ketiga "
        "keempat kelima keenam ketujuh kedelapan kesembilan kesepuluh"
    ),
    leading_articles=frozenset(),
    question_words=_words("apa apakah mengapa kenapa bagaimana kapan dimana siapa berapa"),
    copulas=_words("adalah merupakan ialah"),
    copula_last=False,
    definition_markers=(),
    non_defining_starts=_words("tidak bukan belum juga hanya sangat lebih kurang"),
    prerequisite_phrases=_phrases(
        "dibangun di atas, didasarkan pada, berdasar pada, membutuhkan, memerlukan, "
        "ingat bahwa, ingatlah bahwa, mengasumsikan, mengandaikan"
    ),
    prerequisite_phrases_after_name=(),
    alias_phrases=_phrases(
        "disebut juga, juga disebut, dikenal juga sebagai, juga dikenal sebagai"
    ),
    alias_phrases_after_name=(),
    # --- Utterances ---
    utterance_verbs=_words(
        "tanya tanyakan beri berikan kasih tunjukkan bantu mau ingin coba mulai ayo"
    ),
    utterance_pronouns=_words("aku saya kami kita kamu anda ini itu"),
    utterance_fillers=_words("oke ok baik nah sekarang ya tidak iya terima kasih yuk dong"),
    # --- Record questions ---
    conversation_verb_endings=(),
    record_question_phrases=(
        "apa yang salah",
        "salah saya",
        "kesalahan saya",
        "apa yang sudah kita pelajari",
        "apa yang kita pelajari",
        "bagaimana kemajuan saya",
        "kemajuan saya",
        "apa yang kita bahas",
        "apa yang sudah kita bahas",
    ),
    record_question_more_phrases=(
        "di mana saya salah",
        "apa yang saya pelajari",
        "apa yang sudah saya pelajari",
        "perkembangan saya",
    ),
    record_question_owned=("kesalahanku", "kelemahan saya", "kelemahanku"),
    record_question_lookalikes=(
        "apa yang salah dengan",
        "apa yang salah pada",
        "apa yang salah dari",
    ),
    record_cues={
        "self": _phrases("saya, aku, kita, kami"),
        "record": _phrases(
            "salah, kesalahan, keliru, belajar, pelajari, dipelajari, bahas, dibahas, kemajuan, "
            "perkembangan, lemah, kelemahan, sulit, kuasai, dikuasai, meningkat, gagal, buruk, "
            "lebih baik"
        ),
        "frame": _phrases(
            "yang sudah, sudah kita, sudah saya, yang pernah, pernah saya, pernah kita, sering, "
            "selalu, sejauh ini, selama ini, sampai sekarang, hingga sekarang, sampai saat ini, "
            "tadi, kemarin, minggu lalu, sebelumnya, apa saja, mana saja, paling, masih salah, "
            "masih lemah, masih sering, terus, kemajuan, perkembangan, kelemahan, "
            "apakah saya sudah, terakhir kali, kapan terakhir"
        ),
        # the student's standing across the record (weak at, struggling, improving): asked
        # about with themselves in a question, enough without a frame (``record_question``)
        "trait": _phrases(
            "lemah, kelemahan, kesulitan, makin bagus, makin baik, meningkat, kemajuan, "
            "perkembangan"
        ),
    },
    record_cue_blockers=_phrases(
        "soal ini, jawaban ini, langkah ini, kalimat ini, persamaan ini, latihan ini, bagian ini, "
        "nomor ini, di sini"
        # a request for advice on improving is no question about the record
        ", bagaimana caranya, gimana caranya"
    ),
    profile_self=_phrases("saya, aku, ku, sy, punya saya"),
    profile_preference_cues=_phrases(
        "saya lebih suka, aku lebih suka, saya suka kalau, aku suka kalau, saya lebih paham, "
        "aku lebih paham, tolong selalu, tolong jangan pernah, selalu jelaskan, selalu beri"
    ),
    profile_teaching_words=_phrases(
        "contoh, contoh contoh, langkah demi langkah, langkah, sederhana, singkat, pendek, "
        "pelan pelan, perlahan, gambar, diagram, jelaskan, penjelasan, jawaban, ringkasan, "
        "kalimat"
    ),
    profile_standing_words=_phrases("selalu, setiap kali, tiap kali"),
    profile_request_verbs=_phrases(
        "beri saya, beri aku, berikan, berikanlah, kasih saya, kasih aku, tunjukkan, jelaskan, "
        "mulai dengan, mulailah dengan"
    ),
    profile_remember_cues=_phrases(
        "ingat bahwa saya, ingat saya, ingat bahwa aku, ingatlah bahwa saya, tolong ingat "
        "bahwa saya, jangan lupa bahwa saya, jangan lupa saya"
    ),
    profile_needs={
        "dyslexia": _phrases("disleksia"),
        "adhd": _phrases("adhd, gangguan pemusatan perhatian"),
        "autism": _phrases("autisme, autis"),
        "extra time": _phrases("waktu tambahan, tambahan waktu"),
        "hearing": _phrases("gangguan pendengaran, alat bantu dengar, tuli"),
        "sight": _phrases("gangguan penglihatan, buta warna, huruf besar"),
        "short sentences": _phrases("kalimat pendek, kalimat singkat"),
    },
    profile_goal_words=_phrases("ujian, tes, ulangan, olimpiade, uts, uas"),
    profile_negations=_phrases(
        "tidak, tak, tdk, nggak, ngga, gak, ga, enggak, engga, gk, bukan, belum, jangan"
    ),
    profile_negation_after=False,
    profile_others=_phrases(
        "kakak, kakakku, kakaknya, adik, adikku, adiknya, abang, abangku, ibuku, ayah, ayahku, "
        "bapakku, mama, mamaku, papa, papaku, orang tua, ortu, teman, temanku, temannya, temen, "
        "sahabat, sahabatku, sepupu, sepupuku, tante, paman, bibi, nenek, kakek, pacar, "
        "pacarku, dia, mereka, orang, orang-orang, seseorang, anjing, anjingku, kucing, "
        "kucingku"
    ),  # not "ibu", "bapak", "om": also how a student addresses the tutor
    plan_days={0: ("hari ini",), 1: ("besok", "esok"), 2: ("lusa",)},
    plan_day_blockers=frozenset(),
    ambiguous_weekday_words=_words("minggu"),  # Sunday, and a week
    weekday_cues=_words("hari"),
    profile_self_suffixes=("ku",),
    profile_goal_verbs=frozenset(),
    profile_goal_verb_before=frozenset(),
    profile_goal_verb_after=frozenset(),
    profile_language_cues=_phrases(
        "jelaskan dalam, jelaskan pakai, jelaskan dengan, ajari saya dalam, jawab dalam, "
        "jawab pakai, pakai bahasa, dalam bahasa"
    ),
    profile_languages={
        "en": ("inggris", "bahasa inggris"),
        "es": ("spanyol", "bahasa spanyol"),
        "id": ("indonesia", "bahasa indonesia"),
        "ur": ("urdu", "bahasa urdu"),
        "ar": ("arab", "bahasa arab"),
    },
    profile_name_cues=_phrases("nama saya, nama aku, namaku, panggil aku, panggil saya"),
    profile_name_closers=(),
    profile_name_frames={},  # the name follows its cue ("call me Maya")
    profile_address_cues=_phrases(
        "hai, halo, selamat pagi, selamat siang, selamat sore, selamat malam, selamat datang, "
        "selamat datang kembali, selamat datang lagi, bagus, hebat, kerja bagus, terima kasih, "
        "makasih, sampai jumpa, sampai jumpa lagi, sampai nanti, selamat, senang bertemu lagi, "
        "senang ketemu lagi, semangat"
    ),
    profile_address_particles=(),
    profile_address_epithets=_phrases(
        "dunia, semua, semuanya, kalian, teman, teman-teman, kawan, kelas, tim, adik, adek, "
        "dik, nak, kak, kakak, juara, jenius, bintang, sayang, pak, bapak, bu, ibu, mas, mbak, "
        "murid, siswa, siswi"
    ),
)
