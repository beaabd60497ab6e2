"""Spanish (es): see ``languages.base.Language`` for what each field is."""

from __future__ import annotations

from typing import Final

from tutor_memory.domain.languages.base import Language, snowball
from tutor_memory.domain.languages.base import phrases as _phrases
from tutor_memory.domain.languages.base import words as _words

ES: Final = Language(
    code="es",
    name="Spanish",
    script="latin",
    script_default=False,
    stopword_source=(
        "Snowball's Spanish list, https://snowballstem.org/algorithms/spanish/stop.txt (BSD)"
    ),
    stem=snowball("spanish"),
    # --- Stopwords and the analyser ---
    stopwords=_words(
        "de la que el en y a los del se las por un para con no una su al lo como más pero sus "
        "le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde "
        "quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto "
        "mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada "
        "muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas "
        "nosotras vosotros vosotras os mío mía míos mías tuyo tuya tuyos tuyas suyo suya suyos "
        "suyas nuestro nuestra nuestros nuestras vuestro vuestra vuestros vuestras esos esas "
        # estar
        "estoy estás está estamos estáis están esté estés estemos estéis estén estaré estarás "
        "estará estaremos estaréis estarán estaría estarías estaríamos estaríais estarían "
        "estaba estabas estábamos estabais estaban estuve estuviste estuvo estuvimos "
        "estuvisteis estuvieron estuviera estuvieras estuviéramos estuvierais estuvieran "
        "estuviese estuvieses estuviésemos estuvieseis estuviesen estando estad "
        # haber
        "he has ha hemos habéis han haya hayas hayamos hayáis hayan habré habrás habrá "
        "habremos habréis habrán habría habrías habríamos habríais habrían había habías "
        "habíamos habíais habían hube hubiste hubo hubimos hubisteis hubieron hubiera hubieras "
        "hubiéramos hubierais hubieran hubiese hubieses hubiésemos hubieseis hubiesen habiendo "
        "habido habida habidos habidas "
        # ser
        "soy eres es somos sois son sea seas seamos seáis sean seré serás será seremos seréis "
        "serán sería serías seríamos seríais serían era eras éramos erais eran fui fuiste fue "
        "fuimos fuisteis fueron fuera fueras fuéramos fuerais fueran fuese fueses fuésemos "
        "fueseis fuesen siendo sido "
        # tener
        "tengo tienes tiene tenemos tenéis tienen tenga tengas tengamos tengáis tengan tendré "
        "tendrás tendrá tendremos tendréis tendrán tendría tendrías tendríamos tendríais "
        "tendrían tenía tenías teníamos teníais tenían tuve tuviste tuvo tuvimos tuvisteis "
        "tuvieron tuviera tuvieras tuviéramos tuvierais tuvieran tuviese tuvieses tuviésemos "
        "tuvieseis tuviesen teniendo tenido tenida tenidos tenidas tened"
    ),
    # Question words Snowball lacks (cuánto…, cuáles; folded, qué/cómo/cuál are on the list),
    # usted, prepositions, and the forms of poder that ask ("¿puedes…?").
    stopword_additions=_words(
        "cuáles cuánto cuánta cuántos cuántas usted ustedes hacia tras según mediante "
        "puedo puedes puede podemos pueden podría podrías hola gracias"
    ),
    stopword_exceptions=frozenset(),
    asking_words=_words(
        "explica explícame explicar explique define definir significa significado diferencia "
        "diferencias entender entiendo ayuda ayúdame favor recuérdame resume resumen vimos "
        "aprendimos aprender estudiamos estudiar hablamos repasamos repasar"
    ),
    stopword_proclitics=frozenset(),
    # --- Language detection ---
    detection_markers=_words(
        "el la los las es son qué que cómo como por para porque cuál cual cuáles cuándo cuando "
        "dónde donde quién quien una un unos del al de en con se lo le su sus esta este esto "
        "están hay pero sobre también mi yo nosotros entre explica explícame diferencia muy "
        "más ser fue era"
    ),
    latin_markers=frozenset(),
    own_letters=frozenset(),
    vote_letters=frozenset("¿¡ñáéíóúü"),
    # --- Time: relative phrases and month names ---
    relative_phrases={
        "today": ("hoy",),
        "yesterday": ("ayer",),
        "day_before_yesterday": ("anteayer", "antier", "antes de ayer", "hace dos días"),
        "this_week": ("esta semana",),
        "last_week": ("semana pasada", "semana anterior", "hace una semana"),
        "this_month": ("este mes",),
        "last_month": ("mes pasado", "mes anterior", "hace un mes"),
        "days_ago_3": ("hace tres días", "hace 3 días"),
        "weeks_ago_2": ("hace dos semanas", "hace 2 semanas", "dos semanas atrás"),
        "weeks_ago_3": ("hace tres semanas", "hace 3 semanas", "tres semanas atrás"),
        "months_ago_2": ("hace dos meses", "hace 2 meses", "dos meses atrás"),
        "months_ago_3": ("hace tres meses", "hace 3 meses", "tres meses atrás"),
    },
    not_a_time=("hoy en día", "hoy día"),
    counts_before_relative=frozenset(),
    both_ways_days=frozenset(),
    future_markers=frozenset(),
    # a plan in the past (plandates)
    past_markers=_words(
        "fue fueron era tuve tuvo hice hizo saqué reprobé aprobé pasé salió terminé rendí "
        "suspendí presenté fui estuvo hubo tuvimos hicimos"
    ),
    total_nouns=frozenset(),
    today_blockers=frozenset(),
    month_locales=("es", "es_PE"),
    ambiguous_month_words=frozenset(),
    own_month_words=frozenset(),
    excluded_month_words=_words("set"),
    month_cues_before=_words("en durante desde hasta pasado"),
    month_cues_after=_words("pasado"),
    last_words=_words("pasado pasada"),
    next_words=_words("próximo próxima"),
    year_connectors=_words("de del"),
    # --- Time: does a question ask about a time? ---
    time_question_cues={
        "fillers": _phrases(
            "pues, oye, profe, profesor, profesora, bueno, entonces, ok, vale, hola, me, ya, "
            "perdon, porfa, porfavor, por favor, tambien, pero"
        ),
        "openers": _phrases(
            "que, cual, cuales, cuando, donde, quien, quienes, como, cuanto, cuantos, cuantas, "
            "por que, recuerdame, recuerdas, dime, resume, resumeme, cuentame, explica, "
            "explicame, ayudame, puedes, podrias, quiero saber, no me acuerdo, no recuerdo, "
            "olvide, se me olvido, en que, de que, hazme, haz, dame, muestrame, ensename"
        ),
        "weak_openers": _phrases(""),
        "anywhere": _phrases(
            "recuerdame, me recuerdas, no me acuerdo, no recuerdo, olvide, se me olvido"
        ),
        "ellipsis": _phrases("el, la, los, las, de, del, en, durante, sobre, que, entonces, pues"),
        "recall": _phrases(
            "vimos, hicimos, estudiamos, aprendimos, hablamos, repasamos, tratamos, trabajamos, "
            "practicamos, dimos, leimos, cubrimos, hemos, habiamos, explicaste, ensenaste, me "
            "dijiste, dijiste, me contaste, contaste, mencionaste, me mostraste, recuerdame, "
            "recuerdas, resume, resumeme, resumen, tema, temas, clase, "
            "sesion, leccion, errores, equivoque, falle, fallado, mal, terminamos, acabamos, "
            "empezamos, comenzamos, dejamos, nos quedamos, quedamos, resolvimos, corregimos, "
            "revisamos, analizamos, estudiabamos, veiamos, haciamos, trabajabamos, aprendiamos, "
            "repasabamos, practicabamos, leiamos, hablabamos, tratabamos, estabamos, estudiaba, "
            "aprendia, repasaba, practicaba"
        ),
        "study": _phrases(
            "estudie, aprendi, vi, lei, repase, practique, estudiado, aprendido, visto, hecho, "
            "repasado, trabajado, hice, estudiando, viendo, repasando, aprendiendo, practicando, "
            "trabajando, haciendo, leyendo"
        ),
        "topic": _phrases(
            "explica, explicame, explicas, define, ayudame, ayudas, que es, que son, que "
            "significa, significa, como funciona"
        ),
        "plan": _phrases(
            "vamos, voy, vas, va, debo, deberia, debemos, tengo que, tenemos que, hay que, hay, "
            "podemos, podriamos, necesito, veremos, estudiaremos, haremos, aprenderemos, toca"
        ),
        "past": _phrases(
            "vimos, hicimos, estudiamos, aprendimos, hablamos, repasamos, hemos, habiamos, fue, "
            "fueron, era, estudie, aprendi, vi, hice, falle, equivoque, tuve, visto, estudiado, "
            "hecho, aprendido, terminamos, acabamos, empezamos, comenzamos, dejamos, quedamos, "
            "estudiabamos, veiamos, haciamos, trabajabamos, aprendiamos, repasabamos, estabamos"
        ),
        "clause_breaks": _phrases("porque, pero, aunque, ya que, asi que, sino"),
    },
    verb_question_words=frozenset(),
    verb_question_auxiliaries=frozenset(),
    bounds_before={
        "since": _phrases("desde, partir de"),
        "after": _phrases("despues de, despues del"),
        "before": _phrases("antes de, antes del"),
        "until": _phrases("hasta, para, hasta fines de"),
    },
    bounds_after={},
    time_proclitics="",
    # --- Teaching phrases ---
    teaching_remember=(
        "recuerda que",
        "recuerde que",
        "recuerden que",
        "recordad que",
        "acuérdate de que",
        "acuérdate que",
        "ten en cuenta que",
        "tenga en cuenta que",
        "tengan en cuenta que",
        "no olvides que",
        "no olvide que",
        "quiero que recuerdes que",
    ),
    teaching_that_with_pronoun=frozenset(),
    teaching_treat=("trata", "trate", "traten", "tratad", "considera", "considere", "piensa en"),
    teaching_treat_as=_words("como"),
    treat_as_optional=False,
    object_markers=frozenset(),
    treat_verbs_after=frozenset(),
    naming_verbs_after=frozenset(),
    treat_manner_words=frozenset(),
    genitives=frozenset(),
    teaching_lead_ins=("por favor", "ok", "vale", "bueno", "y", "también", "ahora", "oye", "solo"),
    teaching_question_openers=(
        "qué",
        "cómo",
        "cuándo",
        "dónde",
        "quién",
        "quiénes",
        "cuál",
        "cuáles",
        "cuánto",
        "cuánta",
        "cuántos",
        "cuántas",
        "por qué",
        "acaso",
        "recuerdas",
        "te acuerdas",
        "sabes",
        "puedes",
        "podrías",
    ),
    teaching_naming=(
        "llamamos",
        "le llamamos",
        "nombramos",
        # "recuerda que nuestra profesora llama a X Y" (teaching_namers with their verb)
        "mi profesora llama",
        "mi profesor llama",
        "nuestra profesora llama",
        "nuestro profesor llama",
        "la profesora llama",
        "el profesor llama",
        "mi profe llama",
        "la profe llama",
        "el profe llama",
        "la maestra llama",
        "el maestro llama",
        "el libro llama",
    ),
    teaching_same_as=(
        "es lo mismo que",
        "son lo mismo que",
        "es igual que",
        "significa lo mismo que",
    ),
    teaching_means=(
        "significa",
        "quiere decir",
        "se llama",
        "se conoce como",
        "es llamado",
        "es llamada",
    ),
    same_as_joins=frozenset(),
    same_as_endings=(),
    teaching_articles=_words(
        "a al el la los las un una unos unas lo nuestro nuestra nuestros nuestras"
    ),
    teaching_name_ends=_words("como es son era fue"),
    definite_article="",
    teaching_frames=("en nuestra clase", "en esta clase", "en mi clase", "en clase"),
    teaching_namers=(
        "mi profesora",
        "mi profesor",
        "nuestra profesora",
        "nuestro profesor",
        "la profesora",
        "el profesor",
        "mi profe",
        "la profe",
        "el profe",
        "mi maestra",
        "mi maestro",
        "la maestra",
        "el maestro",
        "el libro",
        "nuestro libro",
    ),
    noun_phrase_verb_endings=(),
    noun_phrase_noun_endings=(),
    noun_phrase_adjective_endings=(
        "al",
        "ales",
        "ar",
        "ares",
        "ico",
        "ica",
        "icos",
        "icas",
        "oso",
        "osa",
        "osos",
        "osas",
        "ivo",
        "iva",
        "ivos",
        "ivas",
        "ble",
        "bles",
        "ino",
        "ina",
        "inos",
        "inas",
        "ado",
        "ada",
        "ados",
        "adas",
        "ido",
        "ida",
        "idos",
        "idas",
    ),
    noun_phrase_verb_prefixes=(),
    # --- Document furniture and reading structure ---
    section_headings=_phrases(
        "introducción, resumen, repaso, conclusión, conclusiones, ejercicios, "
        "actividades, preguntas de repaso, preguntas, respuestas, autoevaluación, "
        "errores comunes, ideas erróneas comunes, ideas erróneas, concepciones erróneas, "
        "términos clave, palabras clave, ideas clave, vocabulario, glosario, definiciones, "
        "objetivos de aprendizaje, objetivos, tabla de contenidos, contenido, contenidos, "
        "índice general, referencias, bibliografía, lecturas adicionales, para saber más, "
        "ejemplo resuelto, ejemplos resueltos, ejemplos, prólogo, agradecimientos"
    ),
    glossary_headings=_phrases("glosario, términos clave, vocabulario, definiciones"),
    glossary_term_columns=_phrases("término, términos, palabra, concepto, nombre"),
    glossary_definition_columns=_phrases(
        "definición, definiciones, significado, descripción, explicación"
    ),
    numbered_headings=_words(
        "capítulo unidad lección parte tema sección apéndice anexo módulo semana actividad "
        "ejercicio ejemplo figura tabla práctica pregunta paso bloque"
    ),
    number_words=_words(
        "uno una dos tres cuatro cinco seis siete ocho nueve diez once doce primero primera "
        "segundo segunda tercero tercera cuarto cuarta quinto quinta sexto sexta séptimo "
        "séptima octavo octava noveno novena décimo décima"
    ),
    leading_articles=_words("el la los las un una unos unas lo"),
    question_words=_words("cuál cuáles cuándo dónde quién quiénes cuánto cuántos"),
    copulas=_words("es son"),
    copula_last=False,
    definition_markers=(),
    non_defining_starts=_words("no nunca también solo sólo muy más menos tan"),
    prerequisite_phrases=_phrases(
        "se basa en, se apoya en, requiere, requieren, recuerda que, recuerde que, supone, "
        "presupone"
    ),
    prerequisite_phrases_after_name=(),
    alias_phrases=_phrases(
        "también llamada, también llamado, también llamadas, también llamados, también "
        "conocida como, también conocido como, en inglés"
    ),
    alias_phrases_after_name=(),
    # --- Utterances ---
    utterance_verbs=_words(
        "pregunta pregúntame dime dame muestra muéstrame ayúdame quiero necesito haz hazme "
        "empecemos sigamos vamos"
    ),
    utterance_pronouns=_words("yo me mi mis nosotros nos tú te tu usted eso esto"),
    utterance_fillers=_words(
        "bueno ahora pues vale sí si no claro gracias oye entonces todos pasos"
    ),
    # --- Record questions ---
    # tú's preterite (prometiste, dijiste) and nosotros' present and preterite (tenemos,
    # vimos): "recuerda que prometiste hacerme un examen", "… tenemos examen mañana"
    conversation_verb_endings=("aste", "iste", "amos", "emos", "imos"),
    record_question_phrases=(
        "qué hice mal",
        "en qué me equivoqué",
        "mis errores",
        "qué hemos aprendido",
        "qué aprendimos",
        "cómo voy",
        "mi progreso",
        "qué vimos",
        "qué hemos visto",
        "qué hicimos",
    ),
    record_question_more_phrases=(
        "en qué fallé",
        "qué errores cometí",
        "qué errores he cometido",
        "qué he aprendido",
        "qué estudiamos",
        "qué hemos estudiado",
    ),
    record_question_owned=("mis puntos débiles", "mi punto débil", "mis fallos", "mis debilidades"),
    record_question_lookalikes=("cómo voy a", "aprendí que", "aprendimos que"),
    record_cues={
        "self": _phrases(
            "yo, mi, mis, me, nosotros, nuestro, nuestra, nuestros, nuestras, he, hemos, hice, "
            "hicimos, sigo, seguimos, llevo, llevamos, cometí, cometimos, fallé, fallamos, "
            "equivoqué, equivocamos, aprendí, aprendimos, vimos, estudié, estudiamos, mejoré, "
            "avancé, repasamos, soy, estoy"
        ),
        "record": _phrases(
            "mal, error, errores, equivocado, equivocada, equivoqué, equivoco, equivocando, "
            "fallado, fallé, fallo, fallando, aprendido, aprendí, aprendimos, visto, vimos, "
            "estudiado, estudié, estudiamos, repasamos, progreso, avance, avanzado, avancé, "
            "mejorado, mejoré, débil, débiles, cuesta, cuestan, dominado, cometido, cometí, "
            "dan peor, va peor"
        ),
        "frame": _phrases(
            "he, hemos, hice, hicimos, cometí, cometimos, fallé, fallamos, equivoqué, equivocamos, "
            "aprendí, aprendimos, vimos, estudié, estudiamos, mejoré, avancé, repasamos, sigo, "
            "seguimos, llevo, llevamos, hasta ahora, hasta el momento, hasta hoy, siempre, "
            "a menudo, la última vez, progreso, más me cuesta, más me cuestan, dan peor, va peor"
        ),
        # the student's standing across the record (weak at, struggling, improving): asked
        # about with themselves in a question, enough without a frame (``record_question``)
        "trait": _phrases(
            "malo, mala, débil, débiles, flojo, floja, cuesta, cuestan, mejorando, mejorado, "
            "progreso, peor"
        ),
    },
    record_cue_blockers=_phrases(
        "esta pregunta, este problema, esta ecuación, esta respuesta, este ejercicio, este paso, "
        "esta oración, esta frase, aquí, en el paso"
        # a request for advice on improving is no question about the record
        ", cómo puedo, cómo podría"
    ),
    profile_self=_phrases("yo, mi, mis, me, tengo, soy, necesito, prefiero, aprendo, entiendo"),
    profile_preference_cues=_phrases(
        "prefiero, preferiría, me gusta que, me gusta cuando, aprendo mejor, entiendo mejor, "
        "por favor siempre, por favor nunca, siempre explícame, siempre dame, explícame siempre"
    ),
    profile_teaching_words=_phrases(
        "ejemplo, ejemplos, paso a paso, pasos, simple, sencillo, corto, cortas, cortos, "
        "despacio, dibujos, diagramas, explicar, explicaciones, explicación, respuestas, "
        "resumen, resúmenes, oraciones, frases"
    ),
    profile_standing_words=_phrases("siempre, cada vez, todas las veces"),
    profile_request_verbs=_phrases(
        "dame, danos, explícame, muéstrame, empieza con, comienza con, ponme"
    ),
    profile_remember_cues=_phrases(
        "recuerda que yo, recuerda que tengo, recuerda que soy, recuerda que mi, ten en cuenta "
        "que yo, ten en cuenta que tengo, no olvides que tengo, no olvides que soy"
    ),
    profile_needs={
        "dyslexia": _phrases("dislexia, disléxico, disléxica"),
        "adhd": _phrases("tdah, déficit de atención"),
        "autism": _phrases("autismo, autista"),
        "extra time": _phrases("tiempo extra, más tiempo en los exámenes, tiempo adicional"),
        "hearing": _phrases("problemas de audición, audífono, sordo, sorda"),
        "sight": _phrases("baja visión, daltónico, daltónica, letra grande"),
        "short sentences": _phrases("frases cortas, oraciones cortas"),
    },
    profile_goal_words=_phrases("examen, exámenes, prueba, pruebas, final, finales, olimpiada"),
    profile_negations=_phrases("no, nunca, jamás, tampoco, ni"),
    # not "él": folded it is the article "el"
    profile_negation_after=False,
    profile_others=_phrases(
        "hermano, hermanos, hermana, hermanas, mamá, madre, papá, padre, padres, amigo, amiga, "
        "amigos, amigas, primo, prima, primos, primas, tía, tío, abuela, abuelo, novio, novia, "
        "compañero, compañera, compañeros, compañeras, vecino, vecina, hijo, hija, ella, "
        "ellos, ellas, gente, persona, personas, alguien, perro, perra, perros, gato, gata, "
        "gatos, mascota"
    ),
    plan_days={0: ("hoy",), 1: ("mañana",), 2: ("pasado mañana",)},
    plan_day_blockers=_words("la las esta esa aquella cada una toda"),  # "la mañana": morning
    ambiguous_weekday_words=frozenset(),
    weekday_cues=frozenset(),
    profile_self_suffixes=(),
    profile_goal_verbs=frozenset(),
    profile_goal_verb_before=frozenset(),
    profile_goal_verb_after=frozenset(),
    profile_language_cues=_phrases(
        "explícame en, explica en, explícalo en, enséñame en, respóndeme en, responde en, "
        "háblame en, escribe en"
    ),
    profile_languages={
        "en": ("inglés",),
        "es": ("español", "castellano"),
        "id": ("indonesio",),
        "ur": ("urdu",),
        "ar": ("árabe",),
    },
    profile_name_cues=_phrases("me llamo, mi nombre es, llámame, puedes llamarme"),
    profile_name_closers=(),
    profile_name_frames={},  # the name follows its cue ("call me Maya")
    profile_address_cues=_phrases(
        "hola, buenos días, buenas tardes, buenas noches, bienvenido, bienvenida, "
        "bienvenido otra vez, bienvenida otra vez, bienvenido de nuevo, bienvenida de nuevo, "
        "muy bien, bien hecho, buen trabajo, gracias, muchas gracias, adiós, hasta luego, "
        "hasta pronto, hasta la próxima, hasta mañana, felicidades, enhorabuena, qué bien verte, "
        "me alegra verte, buena suerte"
    ),
    profile_address_particles=(),
    profile_address_epithets=_phrases(
        "mundo, todos, todas, clase, equipo, chicos, chicas, amigo, amiga, amigos, amigas, "
        "campeón, campeona, genio, crack, estrella, héroe, heroína, cariño, querido, querida, "
        "señor, señora, señorita, profe, estudiante, estudiantes, alumno, alumna, compañero, "
        "compañera, peque, nene, nena, joven"
    ),
)
