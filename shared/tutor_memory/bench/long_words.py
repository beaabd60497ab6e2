"""What the long synthetic conversations say, in five languages (written for this bench).

Templates may use ``{s}`` (the student), ``{t}`` (the tutor), ``{sis}`` (the student's sister),
``{fr}`` (her friend), ``{co}`` (her coach), ``{pet}`` (her pet), ``{place}`` (a place the family
went to), ``{day}`` (a weekday), ``{c}`` (a concept of the subject) and, in questions,
``{month}``. Students are girls and tutors men in every language, so questions can say "her" and
Urdu and Arabic verbs agree with one form. A story's lines begin with the speaker's name
(``"{s}: "`` or ``"{t}: "``), which says who says them.

A story is what one question is about: its evidence (the gold lines), the question asked a day
after the last session, its near misses (lines that share the question's words or meaning and
answer nothing: placed in other sessions) and, for a ``reply`` story, the prompt the evidence
answers. Categories:

* ``single``: one line that shares a distinctive word with the question;
* ``paraphrase``: a fact said once, early, asked in other words (no shared content word);
* ``reply``: the prompt (a question of the other speaker) holds the topic and shares the
  question's words; the evidence, the reply, holds the answer and shares none of them. Only the
  reply is gold: the prompt answers nothing, and a reader who finds it still has to find what
  was said next;
* ``multi-session``: two to four pieces, each said once in its own words, in as many sessions;
* ``return``: a topic raised before the long gap and taken up after it (both lines gold);
* ``dated``: the question names the month of its evidence; a near miss on the same topic is
  said in another month.

``STOPWORDS`` (function words, the tutor's honorifics) and the cast's names are what
``content_words`` leaves out when the tests check that a question and its evidence share no word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from tutor_memory.bench.conversation_words import WORDS as SHORT_WORDS

CATEGORIES: Final = ("single", "paraphrase", "reply", "multi-session", "return", "dated")


@dataclass(frozen=True)
class LongStory:
    key: str
    category: str
    evidence: tuple[str, ...]
    question: str
    near: tuple[str, ...]  # near misses: the question's words or meaning, no answer
    prompt: str = ""  # a reply story: the other speaker's line the evidence answers


@dataclass(frozen=True)
class Subject:
    name: str
    concepts: tuple[tuple[str, str], ...]  # (concept, the tutor's explanation of it)


@dataclass(frozen=True)
class LongWords:
    language: str
    # the cast: a pair takes the nth of each (pairs of one language differ in every name)
    students: tuple[str, ...]
    tutors: tuple[str, ...]
    sisters: tuple[str, ...]
    friends: tuple[str, ...]
    coaches: tuple[str, ...]
    pets: tuple[str, ...]
    places: tuple[str, ...]
    months: tuple[str, ...]
    days: tuple[str, ...]
    greet_student: tuple[str, ...]
    greet_tutor: tuple[str, ...]
    small_talk: tuple[str, ...]  # the student's; the recurring people by name
    reaction: tuple[str, ...]  # the tutor's answer to small talk and to news (fits good and bad)
    ack: tuple[str, ...]  # the student's "ok", "thanks"
    tutor_prompts: tuple[str, ...]  # the tutor's "shall we go on?"
    bye_student: tuple[str, ...]
    bye_tutor: tuple[str, ...]
    ask: tuple[str, ...]  # the student asks about {c}; ask[0] is the favourite's wording
    check: tuple[str, ...]  # the tutor checks understanding of {c}
    subjects: tuple[Subject, ...]  # a pair studies the nth
    stopwords: frozenset[str]
    stories: tuple[LongStory, ...]


_ARABIC_ARTICLES: Final = ("وال", "بال", "فال", "كال", "لل", "ال")


def _bare(word: str) -> str:
    """An Arabic word without its leading "and" and article (والكتاب, للكتاب: كتاب)."""
    if word.startswith("و") and len(word) > 3:
        word = word[1:]
    for article in _ARABIC_ARTICLES:
        if word.startswith(article) and len(word) - len(article) >= 3:
            return word[len(article) :]
    return word


def _stopwords(text: str, language: str = "") -> frozenset[str]:
    """A stopword list written as words separated by spaces."""
    return frozenset(_bare(w) if language == "ar" else w for w in text.split())


def words(text: str, language: str) -> list[str]:
    """The words of a text: ``\\w+``, case-folded; Arabic ones without "and" and article."""
    found = re.findall(r"\w+", text.casefold())
    return [_bare(w) for w in found] if language == "ar" else found


def content_words(text: str, language: str, names: Iterable[str] = ()) -> set[str]:
    """The words of a text less the language's stopwords and the words of the names given."""
    skip = set(STOPWORDS[language])
    for name in names:
        skip.update(words(name, language))
    return {w for w in words(text, language) if w not in skip}


EN = LongWords(
    language="en",
    students=("Maya", "Chloe", "Ava"),
    tutors=("Sam", "Jordan", "Robin"),
    sisters=("Lily", "Grace", "Ruby"),
    friends=("Zoe", "Hannah", "Priya"),
    coaches=("Dana", "Marco", "Tess"),
    pets=("Biscuit", "Pepper", "Bruno"),
    places=("Devon", "Cornwall", "Yorkshire"),
    months=SHORT_WORDS["en"].months,
    days=SHORT_WORDS["en"].days,
    greet_student=(
        "hi {t}!",
        "hey",
        "hello!",
        "hi, I'm here",
        "good evening {t}",
        "hiii",
        "hey {t}, sorry I'm late",
    ),
    greet_tutor=(
        "Hi {s}! How are you today?",
        "Hello {s}, ready to start?",
        "Hey {s}! Good to see you.",
        "Welcome back, {s}!",
    ),
    small_talk=(
        "school was so long today",
        "I have a test on {day}",
        "it's raining again",
        "I'm so tired lol",
        "my mum says hi",
        "we had pasta for dinner",
        "my wifi is so slow today",
        "{sis} took my charger again",
        "{sis} is being so annoying today",
        "{pet} keeps sitting on my notes",
        "{pet} barked at the postman for ten minutes",
        "practice with {co} was exhausting",
        "{co} made us run laps the whole time",
        "{fr} and I walked home together",
        "{fr} says hi",
        "{fr} lent me her notes from {day}",
        "I'm a bit stressed about exams",
        "the bus was late again",
        "I forgot my homework at school",
        "we have a match on {day}",
        "I stayed up too late watching videos",
        "my room is such a mess",
        "it's so cold today",
        "I got a new phone case",
    ),
    reaction=(
        "I see.",
        "Oh really?",
        "Ah, okay.",
        "Thanks for telling me.",
        "Tell me more next time.",
        "Hmm, I see.",
    ),
    ack=(
        "ok",
        "ok!",
        "okay",
        "thanks",
        "thank you!",
        "ok thanks",
        "got it",
        "makes sense",
        "yeah",
        "hmm ok",
        "right",
        "ohh ok",
    ),
    tutor_prompts=(
        "Ready for the next one?",
        "Any questions so far?",
        "Shall we keep going?",
        "Does that make sense?",
    ),
    bye_student=(
        "ok bye!",
        "thanks, see you!",
        "gotta go, bye",
        "thank you, bye {t}!",
        "that's all for today",
    ),
    bye_tutor=(
        "Bye {s}, see you next time!",
        "Great work today!",
        "Well done, {s}. Talk soon.",
        "See you soon!",
    ),
    ask=(
        "can you explain {c} again?",
        "what is {c}?",
        "I don't get {c}",
        "wait, what was {c} again?",
        "is {c} on the test?",
    ),
    check=(
        "Can you tell me in your own words what {c} is?",
        "Quick check: how would you explain {c} to a friend?",
    ),
    subjects=(
        Subject(
            "biology",
            (
                (
                    "osmosis",
                    "Osmosis is water moving through a membrane from a weaker solution to a "
                    "stronger one.",
                ),
                (
                    "diffusion",
                    "Diffusion is particles spreading from where there are many to where there "
                    "are few.",
                ),
                (
                    "photosynthesis",
                    "In photosynthesis plants use light, water and carbon dioxide to make "
                    "glucose and oxygen.",
                ),
                ("mitosis", "Mitosis is one cell dividing into two identical cells."),
                ("enzymes", "Enzymes are proteins that speed up reactions without being used up."),
                (
                    "DNA",
                    "DNA holds the instructions for the cell, written in its sequence of bases.",
                ),
                (
                    "respiration",
                    "Respiration releases energy from glucose, mostly in the mitochondria.",
                ),
            ),
        ),
        Subject(
            "history",
            (
                (
                    "the Industrial Revolution",
                    "It was the shift from hand work to machines and factories, starting in "
                    "Britain around 1760.",
                ),
                (
                    "the Treaty of Versailles",
                    "It ended the First World War in 1919 and put harsh terms on Germany.",
                ),
                (
                    "the Cold War",
                    "It was the long rivalry between the USA and the Soviet Union after 1945, "
                    "without a direct war between them.",
                ),
                (
                    "the French Revolution",
                    "In 1789 the French people rose against the king and the privileges of the "
                    "nobles.",
                ),
                (
                    "the Renaissance",
                    "The Renaissance was a rebirth of art and learning in Europe, starting in "
                    "Italy.",
                ),
                (
                    "feudalism",
                    "Under feudalism the king gave land to lords, and peasants worked it in "
                    "return for protection.",
                ),
                (
                    "the suffragettes",
                    "The suffragettes campaigned for women's right to vote in the early 1900s.",
                ),
            ),
        ),
    ),
    stopwords=_stopwords(
        """a an the is are was were be been am do does did done what which who whom whose how
        where when why her hers she he his him it its s i me my you your we our us they them
        their this that these those to of in on at for with and or but from about by as so up
        out then than not no has have had will would can could into there here any some very
        just also coach"""
    ),
    stories=(
        LongStory(
            "ankle",
            "single",
            ("{s}: I sprained my ankle at practice and {co} benched me for the next two games",),
            "What happened to {s}'s ankle?",
            ("{s}: {fr} hurt her ankle last year and she's still careful on the stairs",),
        ),
        LongStory(
            "fair",
            "single",
            ("{s}: my science fair project is going to be about why salt melts ice faster",),
            "What is {s}'s science fair project about?",
            ("{s}: {fr} won the science fair last year with a solar oven",),
        ),
        LongStory(
            "university",
            "single",
            ("{s}: {sis} got into university in Edinburgh, she moves out in September!",),
            "In which city is {s}'s sister going to university?",
            ("{s}: {fr}'s brother dropped out of university after one term",),
        ),
        LongStory(
            "pet",
            "paraphrase",
            ("{s}: {pet} is a golden retriever, he turned eight in the summer",),
            "What kind of dog does {s} have?",
            ("{s}: the dog next door howls every time it rains",),
        ),
        LongStory(
            "farm",
            "paraphrase",
            (
                "{s}: we spent half-term on my grandparents' farm in {place}, I fed the goats "
                "every morning",
            ),
            "Where did {s} go during the school holidays?",
            ("{s}: {fr} is going to Spain for the Easter holidays",),
        ),
        LongStory(
            "novel",
            "paraphrase",
            (
                "{s}: finally finished that novel about the girl in the lighthouse, I cried at the "
                "end",
            ),
            "Which book has {s} read recently, and what did she think of it?",
            ("{s}: I have to take three library books back by {day}",),
        ),
        LongStory(
            "career",
            "paraphrase",
            ("{s}: when I grow up I want to be a vet, I've wanted that since I was six",),
            "Which job does {s} dream of doing one day?",
            (
                "{s}: my mum's job is so stressful, she works every weekend",
                "{s}: {sis} wants to be a pilot, she's obsessed with planes",
            ),
        ),
        LongStory(
            "birthday",
            "reply",
            ("{s}: we went bowling and then got ice cream, she loved it",),
            "How did {s} celebrate her sister's birthday?",
            ("{s}: {fr}'s birthday is next month and I have no idea what to get her",),
            prompt="{t}: So what did you end up doing for {sis}'s birthday?",
        ),
        LongStory(
            "tip",
            "reply",
            ("{t}: Break it into small chunks and say each one out loud at bedtime.",),
            "What tip did {t} give {s} for remembering things before exams?",
            ("{s}: I blanked on half the questions in my last exam",),
            prompt="{s}: any tips for remembering stuff for exams? I forget everything",
        ),
        LongStory(
            "match",
            "reply",
            ("{s}: we lost 3-1 but I scored our only goal!!",),
            "How did {s}'s team do in the Saturday game?",
            ("{s}: we have another game on Saturday, against the best team in the league",),
            prompt="{t}: How did the game on Saturday go?",
        ),
        LongStory(
            "essay",
            "reply",
            ("{t}: Write the conclusion first, then work backwards to your opening line.",),
            "What did {t} recommend when {s} was stuck starting an essay?",
            ("{s}: my essay got a B, the teacher said the ending was rushed",),
            prompt="{s}: I never know how to start an essay, I just stare at the empty page",
        ),
        LongStory(
            "hobbies",
            "multi-session",
            (
                "{s}: I started knitting, my first scarf is very lumpy lol",
                "{s}: {sis} and I signed up for pottery on Thursday evenings",
                "{s}: I'm learning to skateboard, fell off about ten times today",
            ),
            "What new hobbies has {s} taken up this year?",
            ("{s}: {fr} has so many hobbies, she even does archery",),
        ),
        LongStory(
            "money",
            "multi-session",
            (
                "{s}: I babysat the twins next door, got twenty pounds!",
                "{s}: I got a Saturday job at the bakery on the high street",
            ),
            "How has {s} been earning money?",
            ("{s}: {sis} spends all her money on concert tickets",),
        ),
        LongStory(
            "marks",
            "multi-session",
            (
                "{s}: only 54% on the first maths test, ugh",
                "{s}: 63 on the maths test this time, a bit better",
                "{s}: I got 72 in maths!!",
                "{s}: 85% in the final maths exam, I can't believe it",
            ),
            "How did {s}'s maths marks change over the year?",
            ("{s}: {fr} got 95 on her maths test, she's a genius",),
        ),
        LongStory(
            "play",
            "return",
            (
                "{s}: I'm auditioning for the school play next week, I really want to be the witch",
                "{s}: opening night is on Friday and I'm playing the witch!! rehearsals every day",
            ),
            "Did {s} get the part she auditioned for in the school play?",
            ("{s}: {sis} was in a play once and forgot all her lines",),
        ),
        LongStory(
            "garden",
            "return",
            (
                "{s}: {fr} and I want to start a vegetable garden behind the school",
                "{s}: the tomatoes in our school garden are finally ripe!",
            ),
            "What became of the vegetable garden {s} wanted to start?",
            ("{s}: my grandma's garden is full of roses",),
        ),
        LongStory(
            "drill",
            "dated",
            ("{s}: there was a fire drill in the middle of my chemistry test, we have to redo it",),
            "What did {s} tell you in {month} about a fire drill?",
            ("{s}: another fire drill today, at least it was sunny outside",),
        ),
        LongStory(
            "grandpa",
            "dated",
            (
                "{s}: Grandpa stayed with us this week, he told stories about his sailing days "
                "all evening",
            ),
            "What did {s} say in {month} about her grandpa's visit?",
            ("{s}: Grandpa phoned, he says good luck with my exams",),
        ),
    ),
)

ES = LongWords(
    language="es",
    students=("Lucía", "Valeria", "Carmen"),
    tutors=("Diego", "Pablo", "Andrés"),
    sisters=("Inés", "Paula", "Elena"),
    friends=("Sara", "Nerea", "Alba"),
    coaches=("Rubén", "Olga", "Toni"),
    pets=("Rocky", "Toby", "Coco"),
    places=("Asturias", "Teruel", "Soria"),
    months=SHORT_WORDS["es"].months,
    days=SHORT_WORDS["es"].days,
    greet_student=(
        "¡hola {t}!",
        "holaa",
        "buenas",
        "hola, ya estoy",
        "buenas tardes {t}",
        "perdona el retraso, {t}",
    ),
    greet_tutor=(
        "¡Hola {s}! ¿Qué tal el día?",
        "Hola {s}, ¿empezamos?",
        "¡Qué bien verte, {s}!",
        "Bienvenida otra vez, {s}.",
    ),
    small_talk=(
        "hoy el insti se me ha hecho eterno",
        "tengo examen el {day}",
        "no para de llover",
        "estoy muertísima jaja",
        "mi madre te manda saludos",
        "hemos cenado tortilla",
        "el wifi va fatal hoy",
        "{sis} me ha vuelto a quitar el cargador",
        "{sis} está insoportable hoy",
        "{pet} se ha tumbado encima de mis apuntes",
        "{pet} le ha ladrado al cartero diez minutos seguidos",
        "el entreno con {co} ha sido durísimo",
        "{co} nos ha tenido corriendo toda la tarde",
        "{fr} y yo hemos vuelto juntas a casa",
        "{fr} te manda saludos",
        "{fr} me ha pasado sus apuntes del {day}",
        "estoy un poco agobiada con los exámenes",
        "el autobús ha vuelto a llegar tarde",
        "me he dejado los deberes en clase",
        "tenemos partido el {day}",
        "anoche me acosté tardísimo viendo vídeos",
        "mi cuarto es un desastre",
        "hace un frío horrible hoy",
        "me he comprado una funda nueva para el móvil",
    ),
    reaction=(
        "Ya veo.",
        "¿En serio?",
        "Ah, vale.",
        "Gracias por contármelo.",
        "Ya me contarás más.",
        "Mmm, ya veo.",
    ),
    ack=(
        "vale",
        "vale!",
        "ok",
        "gracias",
        "¡gracias!",
        "vale, gracias",
        "entendido",
        "tiene sentido",
        "sí",
        "mmm vale",
        "ah, vale",
        "okey",
    ),
    tutor_prompts=(
        "¿Seguimos?",
        "¿Alguna duda hasta aquí?",
        "¿Pasamos al siguiente?",
        "¿Tiene sentido?",
    ),
    bye_student=(
        "vale, ¡adiós!",
        "gracias, ¡hasta luego!",
        "me tengo que ir, chao",
        "gracias {t}, ¡adiós!",
        "eso es todo por hoy",
    ),
    bye_tutor=(
        "¡Hasta la próxima, {s}!",
        "¡Buen trabajo hoy!",
        "Muy bien, {s}. Hablamos pronto.",
        "¡Nos vemos pronto!",
    ),
    ask=(
        "¿me vuelves a explicar {c}?",
        "¿qué es {c}?",
        "no entiendo {c}",
        "espera, ¿qué era {c}?",
        "¿{c} entra en el examen?",
    ),
    check=(
        "¿Me cuentas con tus palabras qué es {c}?",
        "A ver: ¿cómo le explicarías {c} a una amiga?",
    ),
    subjects=(
        Subject(
            "historia",
            (
                (
                    "la Revolución Industrial",
                    "Fue el paso del trabajo manual a las máquinas y las fábricas, empezando en "
                    "Gran Bretaña hacia 1760.",
                ),
                (
                    "la Reconquista",
                    "Fueron casi ocho siglos de guerras de los reinos cristianos contra "
                    "al-Ándalus, hasta 1492.",
                ),
                (
                    "la Guerra Fría",
                    "Fue la rivalidad entre Estados Unidos y la Unión Soviética después de 1945, "
                    "sin una guerra directa entre ellos.",
                ),
                (
                    "la Revolución Francesa",
                    "En 1789 el pueblo francés se levantó contra el rey y los privilegios de la "
                    "nobleza.",
                ),
                (
                    "el Renacimiento",
                    "Fue un renacer del arte y del saber en Europa, que empezó en Italia.",
                ),
                (
                    "el feudalismo",
                    "El rey daba tierras a los señores y los campesinos las trabajaban a cambio "
                    "de protección.",
                ),
                (
                    "la Transición",
                    "Fue el paso de la dictadura de Franco a la democracia, con la Constitución "
                    "de 1978.",
                ),
            ),
        ),
        Subject(
            "matemáticas",
            (
                (
                    "el teorema de Pitágoras",
                    "En un triángulo rectángulo, el cuadrado de la hipotenusa es la suma de los "
                    "cuadrados de los catetos.",
                ),
                (
                    "las fracciones",
                    "Una fracción es una parte de un todo: el numerador dice cuántas partes "
                    "tomas y el denominador en cuántas se divide.",
                ),
                (
                    "las ecuaciones",
                    "Una ecuación es una igualdad con una incógnita; se resuelve haciendo lo "
                    "mismo a los dos lados.",
                ),
                (
                    "los porcentajes",
                    "Un porcentaje es una fracción de cien: el 25 % es 25 de cada 100.",
                ),
                (
                    "la derivada",
                    "La derivada mide lo rápido que cambia una función en cada punto, como la "
                    "pendiente de la curva.",
                ),
                (
                    "las funciones lineales",
                    "Una función lineal es una recta, y = mx + n, donde m es la pendiente.",
                ),
                (
                    "la probabilidad",
                    "La probabilidad es casos favorables entre casos posibles, siempre entre 0 "
                    "y 1.",
                ),
            ),
        ),
    ),
    stopwords=_stopwords(
        """el la los las lo un una unos unas de del a al en y e o u que qué quién quien cómo
        como dónde donde adónde cuándo cuando cuál cual por para con sin su sus mi mis tu tus le
        les se me te nos os es son fue fueron era ha han he has hace ya muy más pero ella él
        ellos este esta eso esto ese esa sobre"""
    ),
    stories=(
        LongStory(
            "ankle",
            "single",
            (
                "{s}: me torcí el tobillo en el entreno y {co} me ha dejado en el banquillo los "
                "dos próximos partidos",
            ),
            "¿Qué le pasó a {s} en el tobillo?",
            (
                "{s}: {fr} se hizo daño en el tobillo el año pasado y todavía baja las escaleras "
                "con cuidado",
            ),
        ),
        LongStory(
            "fair",
            "single",
            (
                "{s}: mi proyecto para la feria de ciencias va a ser sobre por qué la sal "
                "derrite el hielo más rápido",
            ),
            "¿De qué trata el proyecto de {s} para la feria de ciencias?",
            ("{s}: {fr} ganó la feria de ciencias el año pasado con un horno solar",),
        ),
        LongStory(
            "university",
            "single",
            (
                "{s}: ¡a {sis} la han admitido en la universidad de Salamanca! se muda en "
                "septiembre",
            ),
            "¿En qué ciudad va a estudiar en la universidad la hermana de {s}?",
            ("{s}: el hermano de {fr} dejó la universidad después del primer trimestre",),
        ),
        LongStory(
            "pet",
            "paraphrase",
            ("{s}: {pet} es un golden retriever, cumplió ocho años este verano",),
            "¿Qué raza de perro tiene {s}?",
            ("{s}: el perro del vecino aúlla cada vez que llueve",),
        ),
        LongStory(
            "farm",
            "paraphrase",
            (
                "{s}: pasamos el puente en la granja de mis abuelos en {place}, daba de comer a "
                "las cabras cada mañana",
            ),
            "¿Adónde fue {s} durante las vacaciones?",
            ("{s}: {fr} se va a la playa en las vacaciones de Semana Santa",),
        ),
        LongStory(
            "novel",
            "paraphrase",
            ("{s}: por fin terminé la novela de la chica del faro, lloré al final",),
            "¿Qué libro ha leído {s} hace poco y qué le pareció?",
            ("{s}: tengo que devolver tres libros a la biblioteca el {day}",),
        ),
        LongStory(
            "career",
            "paraphrase",
            ("{s}: de mayor quiero ser veterinaria, lo tengo claro desde los seis años",),
            "¿Con qué profesión sueña {s}?",
            (
                "{s}: mi madre dice que su profesión es muy estresante, trabaja todos los fines "
                "de semana",
                "{s}: {sis} quiere ser piloto, está obsesionada con los aviones",
            ),
        ),
        LongStory(
            "birthday",
            "reply",
            ("{s}: fuimos a la bolera y luego a por helado, le encantó",),
            "¿Cómo celebró {s} el cumpleaños de su hermana?",
            ("{s}: el cumpleaños de {fr} es el mes que viene y no sé qué regalarle",),
            prompt="{t}: ¿Y al final qué hicisteis por el cumpleaños de {sis}?",
        ),
        LongStory(
            "tip",
            "reply",
            ("{t}: Divídelo en trocitos y repite cada uno en voz alta antes de dormir.",),
            "¿Qué truco le dio {t} a {s} para acordarse de todo en un examen?",
            ("{s}: en el último examen me quedé en blanco en la mitad de las preguntas",),
            prompt=(
                "{s}: ¿algún truco para acordarme de las cosas en los exámenes? se me olvida todo"
            ),
        ),
        LongStory(
            "match",
            "reply",
            ("{s}: perdimos 3-1, ¡pero metí nuestro único gol!!",),
            "¿Cómo le fue al equipo de {s} en el partido del sábado?",
            ("{s}: el sábado tenemos otro partido, contra el mejor equipo de la liga",),
            prompt="{t}: ¿Qué tal el partido del sábado?",
        ),
        LongStory(
            "essay",
            "reply",
            ("{t}: Escribe primero la conclusión y luego ve hacia atrás hasta la primera frase.",),
            "¿Qué le recomendó {t} a {s} cuando no sabía empezar una redacción?",
            (
                "{s}: me han puesto un notable en la redacción, la profe dice que el final era "
                "precipitado",
            ),
            prompt="{s}: nunca sé cómo empezar una redacción, me quedo mirando la hoja en blanco",
        ),
        LongStory(
            "hobbies",
            "multi-session",
            (
                "{s}: he empezado a hacer punto, mi primera bufanda ha quedado llena de bultos "
                "jaja",
                "{s}: {sis} y yo nos hemos apuntado a cerámica los jueves por la tarde",
                "{s}: estoy aprendiendo a ir en monopatín, hoy me he caído como diez veces",
            ),
            "¿Qué aficiones nuevas tiene {s} este año?",
            ("{s}: {fr} tiene mil aficiones, hasta hace tiro con arco",),
        ),
        LongStory(
            "money",
            "multi-session",
            (
                "{s}: cuidé a los gemelos de los vecinos, ¡me dieron veinte euros!",
                "{s}: ¡tengo trabajo los sábados en la panadería de la plaza!",
            ),
            "¿Cómo ha estado ganando dinero {s}?",
            ("{s}: {sis} se gasta todo el dinero en entradas de conciertos",),
        ),
        LongStory(
            "marks",
            "multi-session",
            (
                "{s}: solo un 5,4 en el primer examen de mates, uf",
                "{s}: un 6,3 en mates esta vez, algo mejor",
                "{s}: ¡un 7,2 en mates!!",
                "{s}: ¡un 8,5 en el examen final de mates, no me lo creo!",
            ),
            "¿Cómo fueron cambiando las notas de mates de {s} durante el curso?",
            ("{s}: {fr} ha sacado un 9,5 en mates, es un genio",),
        ),
        LongStory(
            "play",
            "return",
            (
                "{s}: la semana que viene hago la prueba para la obra del instituto, quiero ser "
                "la bruja",
                "{s}: ¡el estreno es el viernes y hago de bruja!! ensayamos todos los días",
            ),
            "¿Consiguió {s} el papel que quería en la obra del instituto?",
            ("{s}: {sis} salió en una obra una vez y se le olvidó todo el texto",),
        ),
        LongStory(
            "garden",
            "return",
            (
                "{s}: {fr} y yo queremos montar un huerto detrás del instituto",
                "{s}: ¡los tomates de nuestro huerto del instituto ya están rojos!",
            ),
            "¿Qué pasó con el huerto que {s} quería montar?",
            ("{s}: mi abuelo tiene un huerto en el pueblo lleno de lechugas",),
        ),
        LongStory(
            "drill",
            "dated",
            (
                "{s}: hubo un simulacro de incendio en mitad de mi examen de química, lo tenemos "
                "que repetir",
            ),
            "¿Qué te contó {s} en {month} sobre un simulacro de incendio?",
            ("{s}: hoy otro simulacro de incendio, al menos hacía sol",),
        ),
        LongStory(
            "grandpa",
            "dated",
            (
                "{s}: el abuelo ha pasado la semana en casa y todas las noches contaba historias "
                "de cuando era marinero",
            ),
            "¿Qué dijo {s} en {month} sobre la visita de su abuelo?",
            ("{s}: ha llamado el abuelo, dice que mucha suerte en los exámenes",),
        ),
    ),
)

ID = LongWords(
    language="id",
    students=("Putri", "Dinda", "Ayu"),
    tutors=("Bima", "Dimas", "Fajar"),
    sisters=("Nadia", "Salsa", "Tiara"),
    friends=("Citra", "Intan", "Laras"),
    coaches=("Hendra", "Joko", "Agus"),
    pets=("Oyen", "Mochi", "Kiko"),
    places=("Malang", "Bukittinggi", "Garut"),
    months=SHORT_WORDS["id"].months,
    days=SHORT_WORDS["id"].days,
    greet_student=(
        "halo kak {t}!",
        "hai kak",
        "halo!",
        "kak, aku udah siap",
        "selamat sore kak {t}",
        "maaf telat kak",
    ),
    greet_tutor=(
        "Halo {s}! Gimana kabarnya hari ini?",
        "Hai {s}, siap mulai?",
        "Senang ketemu lagi, {s}!",
        "Selamat datang lagi, {s}.",
    ),
    small_talk=(
        "hari ini sekolah lama banget",
        "aku ada ulangan hari {day}",
        "hujan lagi di sini",
        "capek banget wkwk",
        "mama titip salam",
        "tadi makan malam nasi goreng",
        "wifi di rumah lemot banget hari ini",
        "{sis} ngambil charger aku lagi",
        "{sis} lagi nyebelin banget hari ini",
        "{pet} tidur di atas catatanku",
        "{pet} ngejar cicak di dinding terus",
        "latihan sama Pak {co} capek banget",
        "Pak {co} nyuruh kami lari keliling lapangan terus",
        "aku sama {fr} pulang bareng tadi",
        "{fr} titip salam kak",
        "{fr} minjemin catatan hari {day}",
        "aku agak stres soal ujian",
        "angkotnya telat lagi",
        "PR-ku ketinggalan di sekolah",
        "hari {day} ada pertandingan",
        "semalam begadang nonton video",
        "kamarku berantakan banget",
        "panas banget hari ini",
        "aku beli casing HP baru",
    ),
    reaction=(
        "Oh, begitu.",
        "Oh ya?",
        "Ah, oke.",
        "Makasih udah cerita.",
        "Nanti cerita lagi ya.",
        "Hmm, begitu ya.",
    ),
    ack=(
        "oke",
        "oke!",
        "ok kak",
        "makasih",
        "makasih kak!",
        "oke makasih",
        "paham",
        "masuk akal",
        "iya",
        "hmm oke",
        "ohh gitu",
        "siap kak",
    ),
    tutor_prompts=(
        "Lanjut ya?",
        "Ada pertanyaan sejauh ini?",
        "Siap ke soal berikutnya?",
        "Paham sampai sini?",
    ),
    bye_student=(
        "oke, dadah kak!",
        "makasih kak, sampai ketemu!",
        "aku pamit dulu ya",
        "makasih kak {t}, dadah!",
        "udah dulu ya hari ini",
    ),
    bye_tutor=(
        "Sampai jumpa lagi, {s}!",
        "Kerja bagus hari ini!",
        "Hebat, {s}. Sampai nanti.",
        "Sampai ketemu!",
    ),
    ask=(
        "kak, bisa jelasin {c} lagi?",
        "{c} itu apa sih?",
        "aku belum paham {c}",
        "eh, {c} itu apa ya tadi?",
        "{c} keluar di ujian nggak?",
    ),
    check=(
        "Coba jelaskan {c} dengan kata-katamu sendiri.",
        "Kalau kamu jelasin {c} ke teman, gimana?",
    ),
    subjects=(
        Subject(
            "biologi",
            (
                (
                    "osmosis",
                    "Osmosis adalah perpindahan air melalui membran dari larutan encer ke "
                    "larutan pekat.",
                ),
                (
                    "difusi",
                    "Difusi adalah perpindahan partikel dari tempat yang padat ke tempat yang "
                    "jarang.",
                ),
                (
                    "fotosintesis",
                    "Dalam fotosintesis, tumbuhan memakai cahaya, air, dan karbon dioksida untuk "
                    "membuat glukosa dan oksigen.",
                ),
                ("mitosis", "Mitosis adalah pembelahan satu sel menjadi dua sel yang identik."),
                ("enzim", "Enzim adalah protein yang mempercepat reaksi tanpa ikut habis."),
                ("DNA", "DNA menyimpan instruksi sel dalam urutan basanya."),
                ("respirasi", "Respirasi melepaskan energi dari glukosa, terutama di mitokondria."),
            ),
        ),
        Subject(
            "matematika",
            (
                (
                    "teorema Pythagoras",
                    "Pada segitiga siku-siku, kuadrat sisi miring sama dengan jumlah kuadrat "
                    "kedua sisi lainnya.",
                ),
                (
                    "pecahan",
                    "Pecahan adalah bagian dari keseluruhan: pembilang menunjukkan berapa bagian "
                    "yang diambil, penyebut menunjukkan dibagi menjadi berapa.",
                ),
                (
                    "persamaan linear",
                    "Persamaan linear diselesaikan dengan melakukan operasi yang sama di kedua "
                    "ruas sampai variabelnya sendirian.",
                ),
                ("persen", "Persen artinya per seratus: 25 persen berarti 25 dari setiap 100."),
                (
                    "peluang",
                    "Peluang adalah banyak kejadian yang diinginkan dibagi banyak semua "
                    "kemungkinan, nilainya antara 0 dan 1.",
                ),
                ("gradien", "Gradien adalah kemiringan garis: perubahan y dibagi perubahan x."),
                (
                    "himpunan",
                    "Himpunan adalah kumpulan benda yang jelas batasannya, misalnya bilangan "
                    "genap kurang dari 10.",
                ),
            ),
        ),
    ),
    stopwords=_stopwords(
        """yang di ke dari dan atau apa siapa bagaimana gimana mana kapan kenapa mengapa itu ini
        dengan untuk buat pada aku saya kamu dia ia nya sudah udah akan ada tidak nggak juga ya
        sih nih deh kok kak pak bu si dong lagi"""
    ),
    stories=(
        LongStory(
            "ankle",
            "single",
            (
                "{s}: pergelangan kakiku keseleo waktu latihan, Pak {co} nyuruh aku duduk di "
                "bangku cadangan dua pertandingan ke depan",
            ),
            "Apa yang terjadi dengan pergelangan kaki {s}?",
            (
                "{s}: pergelangan kaki {fr} cedera tahun lalu, sampai sekarang dia hati-hati "
                "kalau turun tangga",
            ),
        ),
        LongStory(
            "fair",
            "single",
            (
                "{s}: proyekku buat pameran sains nanti tentang kenapa garam bikin es lebih cepat "
                "mencair",
            ),
            "Proyek pameran sains {s} tentang apa?",
            ("{s}: {fr} menang pameran sains tahun lalu pakai oven tenaga surya",),
        ),
        LongStory(
            "university",
            "single",
            ("{s}: {sis} diterima kuliah di Yogyakarta! bulan September dia pindah ke sana",),
            "Di kota mana kakak {s} akan kuliah?",
            ("{s}: kakaknya {fr} berhenti kuliah setelah satu semester",),
        ),
        LongStory(
            "pet",
            "paraphrase",
            ("{s}: {pet} itu kucing oranye, umurnya sudah lima tahun",),
            "Hewan peliharaan apa yang dimiliki {s}?",
            ("{s}: {fr} pengin punya hewan peliharaan tapi nggak boleh sama ibunya",),
        ),
        LongStory(
            "farm",
            "paraphrase",
            (
                "{s}: pas cuti bersama kemarin kami menginap di kebun teh nenek di {place}, tiap "
                "pagi aku ikut memetik daun",
            ),
            "Ke mana {s} pergi waktu liburan?",
            ("{s}: {fr} mau ke Bali waktu liburan sekolah nanti",),
        ),
        LongStory(
            "novel",
            "paraphrase",
            (
                "{s}: akhirnya aku menamatkan novel tentang gadis penjaga mercusuar, aku nangis "
                "di bagian akhir",
            ),
            "Buku apa yang baru saja dibaca {s}, dan bagaimana kesannya?",
            ("{s}: aku harus mengembalikan tiga buku ke perpustakaan hari {day}",),
        ),
        LongStory(
            "career",
            "paraphrase",
            ("{s}: kalau sudah besar aku mau jadi dokter hewan, dari umur enam tahun aku pengin",),
            "Apa cita-cita {s}?",
            ("{s}: cita-cita {sis} jadi pilot, dia tergila-gila sama pesawat",),
        ),
        LongStory(
            "birthday",
            "reply",
            ("{s}: kami main bowling terus makan es krim, dia senang banget",),
            "Bagaimana {s} merayakan ulang tahun kakaknya?",
            ("{s}: ulang tahun {fr} bulan depan, aku bingung mau kasih kado apa",),
            prompt="{t}: Jadi, ulang tahun {sis} kemarin dirayakan gimana?",
        ),
        LongStory(
            "tip",
            "reply",
            (
                "{t}: Pecah jadi potongan kecil, lalu ucapkan masing-masing dengan suara keras "
                "sebelum tidur.",
            ),
            "Apa tips dari {t} supaya {s} gampang ingat materi ujian?",
            ("{s}: di ujian kemarin aku blank di setengah soal",),
            prompt="{s}: kak, ada tips biar gampang ingat materi buat ujian? aku sering lupa semua",
        ),
        LongStory(
            "match",
            "reply",
            ("{s}: kalah 3-1, tapi gol kami satu-satunya aku yang cetak!!",),
            "Bagaimana hasil tim {s} di pertandingan hari Sabtu?",
            ("{s}: hari Sabtu ada pertandingan lagi, lawan tim terkuat di liga",),
            prompt="{t}: Gimana pertandingan hari Sabtu?",
        ),
        LongStory(
            "essay",
            "reply",
            ("{t}: Tulis dulu penutupnya, lalu mundur pelan-pelan sampai kalimat pembuka.",),
            "Apa saran {t} waktu {s} bingung memulai karangan?",
            ("{s}: karanganku dapat nilai B, kata bu guru penutupnya terburu-buru",),
            prompt=(
                "{s}: aku nggak pernah tahu cara mulai nulis karangan, cuma bengong lihat kertas "
                "kosong"
            ),
        ),
        LongStory(
            "hobbies",
            "multi-session",
            (
                "{s}: aku mulai belajar merajut, syal pertamaku benjol-benjol wkwk",
                "{s}: aku sama {sis} ikut kelas keramik tiap Kamis sore",
                "{s}: lagi belajar main skateboard, tadi jatuh kayak sepuluh kali",
            ),
            "Hobi baru apa saja yang dicoba {s} tahun ini?",
            ("{s}: hobi {fr} banyak banget, dia bahkan ikut panahan",),
        ),
        LongStory(
            "money",
            "multi-session",
            (
                "{s}: aku jagain si kembar anak tetangga, dapat lima puluh ribu!",
                "{s}: aku dapat kerja sambilan tiap Sabtu di toko roti dekat pasar",
            ),
            "Dengan cara apa saja {s} menghasilkan uang?",
            ("{s}: {sis} menghabiskan semua uangnya buat tiket konser",),
        ),
        LongStory(
            "marks",
            "multi-session",
            (
                "{s}: nilai ulangan matematika pertamaku cuma 54, huhu",
                "{s}: matematika kali ini 63, lumayan naik",
                "{s}: dapat 72 di matematika!!",
                "{s}: ujian akhir matematika 85, nggak nyangka banget",
            ),
            "Bagaimana perkembangan nilai matematika {s} sepanjang tahun?",
            ("{s}: {fr} dapat 95 di ulangan matematika, jenius banget dia",),
        ),
        LongStory(
            "play",
            "return",
            (
                "{s}: minggu depan aku ikut audisi drama sekolah, pengin banget jadi penyihir",
                "{s}: pentasnya hari Jumat dan aku jadi penyihirnya!! tiap hari latihan",
            ),
            "Apakah {s} dapat peran yang dia incar di drama sekolah?",
            ("{s}: {sis} pernah main drama dan lupa semua dialognya",),
        ),
        LongStory(
            "garden",
            "return",
            (
                "{s}: aku sama {fr} mau bikin kebun sayur di belakang sekolah",
                "{s}: tomat di kebun sayur sekolah kami akhirnya merah!",
            ),
            "Bagaimana kelanjutan kebun sayur yang mau dibuat {s}?",
            ("{s}: tetanggaku punya kebun sayur yang luas banget",),
        ),
        LongStory(
            "drill",
            "dated",
            ("{s}: ada simulasi kebakaran pas aku lagi ulangan kimia, jadi harus diulang",),
            "Apa yang {s} ceritakan di bulan {month} tentang simulasi kebakaran?",
            ("{s}: tadi ada simulasi kebakaran lagi, untung cuacanya cerah",),
        ),
        LongStory(
            "grandpa",
            "dated",
            (
                "{s}: kakek menginap seminggu di rumah, tiap malam cerita soal masa mudanya jadi "
                "pelaut",
            ),
            "Apa cerita {s} di bulan {month} tentang kunjungan kakeknya?",
            ("{s}: kakek telepon, katanya semangat ujiannya",),
        ),
    ),
)

UR = LongWords(
    language="ur",
    students=("عائشہ", "زینب", "مریم"),
    tutors=("عمران", "بلال", "حسن"),
    sisters=("ثنا", "حرا", "ماہا"),
    friends=("فاطمہ", "علیزے", "نمرہ"),
    coaches=("شاہد", "ناصر", "طارق"),
    pets=("مانو", "چنکی", "پری"),
    places=("سوات", "ہنزہ", "مری"),
    months=SHORT_WORDS["ur"].months,
    days=SHORT_WORDS["ur"].days,
    greet_student=(
        "السلام علیکم سر!",
        "سلام {t} سر",
        "ہیلو!",
        "سر، میں آ گئی ہوں",
        "معاف کیجیے گا، دیر ہو گئی",
        "سر، شروع کریں؟",
    ),
    greet_tutor=(
        "وعلیکم السلام {s}! آج کا دن کیسا رہا؟",
        "سلام {s}، شروع کریں؟",
        "{s}! آپ کو دیکھ کر خوشی ہوئی۔",
        "خوش آمدید {s}، آج کیا پڑھیں گے؟",
    ),
    small_talk=(
        "آج اسکول بہت لمبا لگا",
        "{day} کو میرا ٹیسٹ ہے",
        "یہاں پھر سے بارش ہو رہی ہے",
        "میں بہت تھک گئی ہوں",
        "امی آپ کو سلام کہہ رہی ہیں",
        "آج رات کھانے میں بریانی تھی",
        "آج انٹرنیٹ بہت سلو ہے",
        "{sis} نے پھر میرا چارجر لے لیا",
        "{sis} آج بہت تنگ کر رہی ہے",
        "{pet} میری کاپی پر سو گئی",
        "{pet} سارا دن چھپکلی کے پیچھے بھاگتی رہی",
        "{co} سر کے ساتھ پریکٹس بہت سخت تھی",
        "{co} سر نے ہمیں پورا وقت گراؤنڈ کے چکر لگوائے",
        "میں اور {fr} ساتھ گھر واپس آئیں",
        "{fr} آپ کو سلام کہہ رہی ہے",
        "{fr} نے مجھے {day} والے نوٹس دیے",
        "امتحانوں کی وجہ سے تھوڑی پریشان ہوں",
        "وین آج پھر دیر سے آئی",
        "میرا ہوم ورک اسکول میں رہ گیا",
        "{day} کو ہمارا میچ ہے",
        "کل رات دیر تک ویڈیوز دیکھتی رہی",
        "میرا کمرہ بہت بکھرا ہوا ہے",
        "آج بہت گرمی ہے",
        "میں نے فون کا نیا کور لیا",
    ),
    reaction=(
        "اچھا، سمجھ گیا۔",
        "اچھا؟ واقعی؟",
        "اوہ، اچھا۔",
        "بتانے کا شکریہ۔",
        "اگلی بار تفصیل سے بتانا۔",
        "ہمم، اچھا جی۔",
    ),
    ack=(
        "ٹھیک ہے",
        "ٹھیک ہے!",
        "اوکے",
        "شکریہ",
        "شکریہ سر!",
        "اوکے شکریہ",
        "سمجھ گئی",
        "اب سمجھ آیا",
        "جی",
        "ہمم ٹھیک ہے",
        "اچھا اچھا",
        "جی سر",
    ),
    tutor_prompts=(
        "اگلا سوال کریں؟",
        "اب تک کوئی سوال؟",
        "آگے چلیں؟",
        "بات سمجھ آئی؟",
    ),
    bye_student=(
        "اوکے، اللہ حافظ!",
        "شکریہ سر، پھر ملیں گے!",
        "مجھے جانا ہے، اللہ حافظ",
        "شکریہ {t} سر، خدا حافظ!",
        "آج کے لیے بس اتنا ہی",
    ),
    bye_tutor=(
        "اللہ حافظ {s}، اگلی بار ملتے ہیں!",
        "آج بہت اچھا کام کیا!",
        "شاباش {s}، پھر بات ہو گی۔",
        "جلد ملیں گے!",
    ),
    ask=(
        "سر، {c} دوبارہ سمجھا دیں؟",
        "سر، {c} کا مطلب کیا ہے؟",
        "مجھے {c} والی بات سمجھ نہیں آئی",
        "سر، {c} کے بارے میں کیا بتایا تھا؟",
        "کیا ٹیسٹ میں {c} سے سوال آئے گا؟",
    ),
    check=(
        "اپنے الفاظ میں {c} سمجھائیں۔",
        "اگر کسی سہیلی کو {c} سمجھانا ہو تو کیسے سمجھائیں گی؟",
    ),
    subjects=(
        Subject(
            "ریاضی",
            (
                (
                    "مسئلہ فیثاغورث",
                    "قائمہ زاویہ مثلث میں وتر کا مربع باقی دو اضلاع کے مربعوں کے مجموعے کے "
                    "برابر ہوتا ہے۔",
                ),
                (
                    "کسور",
                    "کسر کسی پوری چیز کا حصہ ہے: شمار کنندہ بتاتا ہے کتنے حصے لیے اور نسب نما "
                    "بتاتا ہے کل کتنے حصے ہیں۔",
                ),
                ("مساوات", "مساوات میں دونوں طرف ایک ہی عمل کریں تاکہ نامعلوم اکیلا رہ جائے۔"),
                ("فیصد", "فیصد کا مطلب ہے سو میں سے: پچیس فیصد یعنی ہر سو میں سے پچیس۔"),
                (
                    "احتمال",
                    "احتمال مطلوبہ نتائج کو کل ممکنہ نتائج سے تقسیم کرنے سے نکلتا ہے، اور یہ "
                    "صفر اور ایک کے درمیان ہوتا ہے۔",
                ),
                (
                    "ڈھلوان",
                    "ڈھلوان لکیر کا جھکاؤ ہے: عمودی تبدیلی کو افقی تبدیلی سے تقسیم کریں۔",
                ),
                ("سیٹ", "سیٹ واضح طور پر متعین چیزوں کا مجموعہ ہے، جیسے دس سے کم جفت اعداد۔"),
            ),
        ),
        Subject(
            "حیاتیات",
            (
                ("عمل تنفس", "عمل تنفس میں گلوکوز سے توانائی نکلتی ہے، زیادہ تر مائٹوکانڈریا میں۔"),
                (
                    "ضیائی تالیف",
                    "ضیائی تالیف میں پودے روشنی، پانی اور کاربن ڈائی آکسائیڈ سے گلوکوز اور "
                    "آکسیجن بناتے ہیں۔",
                ),
                ("خلیہ", "خلیہ زندگی کی سب سے چھوٹی اکائی ہے؛ ہر جاندار خلیوں سے بنا ہے۔"),
                (
                    "اوسموسس",
                    "اوسموسس میں پانی جھلی کے پار کم گاڑھے محلول سے زیادہ گاڑھے محلول کی طرف "
                    "جاتا ہے۔",
                ),
                ("انزائم", "انزائم ایسے پروٹین ہیں جو خود ختم ہوئے بغیر ردعمل کو تیز کرتے ہیں۔"),
                ("ڈی این اے", "ڈی این اے خلیے کی ہدایات اپنے بیسز کی ترتیب میں محفوظ رکھتا ہے۔"),
                ("مائٹوسس", "مائٹوسس میں ایک خلیہ تقسیم ہو کر دو ایک جیسے خلیے بناتا ہے۔"),
            ),
        ),
    ),
    stopwords=_stopwords(
        """کا کی کے میں نے کو سے پر اور یا ہے ہیں تھا تھی تھے ہو کیا کیسے کیسی کیسا کہاں کب
        کون کس کیوں وہ یہ اس ان اسے انہیں میرا میری میرے آپ ہم تو بھی نہیں ہی جو جب سا سی
        سر لیے تک"""
    ),
    stories=(
        LongStory(
            "ankle",
            "single",
            (
                "{s}: پریکٹس میں میرے ٹخنے میں موچ آ گئی اور {co} سر نے مجھے اگلے دو میچوں سے "
                "باہر کر دیا",
            ),
            "{s} کے ٹخنے کو کیا ہوا؟",
            ("{s}: پچھلے سال {fr} کے ٹخنے پر چوٹ لگی تھی، وہ اب بھی سیڑھیاں سنبھل کر اترتی ہے",),
        ),
        LongStory(
            "fair",
            "single",
            (
                "{s}: سائنس میلے کے لیے میرا پروجیکٹ اس بارے میں ہو گا کہ نمک برف کو جلدی کیوں "
                "پگھلاتا ہے",
            ),
            "سائنس میلے میں {s} کا پروجیکٹ کس بارے میں ہے؟",
            ("{s}: پچھلے سال {fr} نے شمسی اوون بنا کر سائنس میلہ جیتا تھا",),
        ),
        LongStory(
            "university",
            "single",
            ("{s}: {sis} کا لاہور کی یونیورسٹی میں داخلہ ہو گیا! وہ ستمبر میں ہاسٹل چلی جائے گی",),
            "{s} کی بہن کس شہر کی یونیورسٹی میں جا رہی ہے؟",
            ("{s}: {fr} کے بھائی نے ایک سمسٹر کے بعد یونیورسٹی چھوڑ دی",),
        ),
        LongStory(
            "pet",
            "paraphrase",
            ("{s}: {pet} سفید فارسی بلی ہے، اس سال پانچ برس کی ہو گئی",),
            "{s} کا پالتو جانور کون سا ہے؟",
            ("{s}: {fr} پالتو جانور رکھنا چاہتی ہے مگر اس کی امی نہیں مانتیں",),
        ),
        LongStory(
            "farm",
            "paraphrase",
            (
                "{s}: اسکول بند تھا تو ہم نے پورا ہفتہ {place} میں نانا کے باغ پر گزارا، میں "
                "روز صبح خوبانیاں توڑتی تھی",
            ),
            "چھٹیوں میں {s} کہاں گئی تھی؟",
            ("{s}: {fr} چھٹیوں میں دبئی جا رہی ہے",),
        ),
        LongStory(
            "novel",
            "paraphrase",
            (
                "{s}: آخرکار وہ ناول ختم کر لیا جس میں ایک لڑکی لائٹ ہاؤس میں رہتی ہے، آخر میں "
                "میں رو پڑی",
            ),
            "{s} نے حال ہی میں کون سی کتاب پڑھی اور اسے کیسی لگی؟",
            ("{s}: مجھے {day} تک لائبریری کو تین کتابیں واپس کرنی ہیں",),
        ),
        LongStory(
            "career",
            "paraphrase",
            ("{s}: بڑی ہو کر میں جانوروں کی ڈاکٹر بنوں گی، چھ سال کی عمر سے یہی سوچا ہوا ہے",),
            "{s} مستقبل میں کس پیشے کا خواب دیکھتی ہے؟",
            ("{s}: {sis} پائلٹ بننے کا خواب دیکھتی ہے، اسے جہازوں کا جنون ہے",),
        ),
        LongStory(
            "birthday",
            "reply",
            ("{s}: ہم بولنگ کھیلنے گئے اور پھر آئس کریم کھائی، اسے بہت مزہ آیا",),
            "{s} نے اپنی بہن کی سالگرہ کیسے منائی؟",
            ("{s}: اگلے مہینے {fr} کی سالگرہ ہے، سمجھ نہیں آ رہا کیا تحفہ دوں",),
            prompt="{t}: تو پھر {sis} کی سالگرہ پر آپ لوگوں نے کیا کیا؟",
        ),
        LongStory(
            "tip",
            "reply",
            (
                "{t}: چھوٹے چھوٹے ٹکڑوں میں بانٹ لیں اور سونے سے پہلے ہر ٹکڑا اونچی آواز میں "
                "دہرائیں۔",
            ),
            "{t} نے {s} کو امتحان کے لیے یاد رکھنے کا کیا طریقہ بتایا؟",
            ("{s}: پچھلے امتحان میں آدھے سوالوں پر میرا دماغ خالی ہو گیا",),
            prompt=(
                "{s}: سر، امتحان کے لیے چیزیں یاد رکھنے کا کوئی طریقہ بتائیں؟ میں سب بھول جاتی ہوں"
            ),
        ),
        LongStory(
            "match",
            "reply",
            ("{s}: ہم ہار گئے لیکن میں نے چالیس رنز بنائے!!",),
            "ہفتے کے میچ میں {s} کی ٹیم کا کیا نتیجہ رہا؟",
            ("{s}: ہفتے کو پھر میچ ہے، لیگ کی سب سے اچھی ٹیم کے خلاف",),
            prompt="{t}: ہفتے والا میچ کیسا رہا؟",
        ),
        LongStory(
            "essay",
            "reply",
            ("{t}: پہلے آخری پیراگراف لکھیں، پھر الٹا چلتے ہوئے پہلی سطر تک آئیں۔",),
            "جب {s} کو مضمون شروع کرنے میں مشکل ہو رہی تھی تو {t} نے کیا مشورہ دیا؟",
            ("{s}: میرے مضمون پر بی گریڈ آیا، ٹیچر نے کہا آخری حصہ جلدی میں لکھا گیا",),
            prompt=(
                "{s}: مجھے کبھی سمجھ نہیں آتا کہ مضمون شروع کیسے کروں، بس خالی صفحہ دیکھتی رہتی ہوں"
            ),
        ),
        LongStory(
            "hobbies",
            "multi-session",
            (
                "{s}: میں نے اون سے بنائی شروع کی ہے، پہلا مفلر بہت ٹیڑھا میڑھا بنا ہاہا",
                "{s}: میں اور {sis} ہر جمعرات کو مٹی کے برتن بنانے کی کلاس میں جاتی ہیں",
                "{s}: اسکیٹ بورڈ سیکھ رہی ہوں، آج کوئی دس بار گری",
            ),
            "{s} نے اس سال کون سے نئے مشغلے اپنائے؟",
            ("{s}: {fr} کے مشغلے بہت زیادہ ہیں، وہ تیر اندازی بھی کرتی ہے",),
        ),
        LongStory(
            "money",
            "multi-session",
            (
                "{s}: میں نے پڑوس کے جڑواں بچوں کو سنبھالا، دو ہزار روپے ملے!",
                "{s}: مجھے بیکری پر ہر ہفتے کے دن پارٹ ٹائم نوکری مل گئی!",
            ),
            "{s} پیسے کیسے کما رہی ہے؟",
            ("{s}: {sis} اپنے سارے پیسے کنسرٹ کے ٹکٹوں پر اڑا دیتی ہے",),
        ),
        LongStory(
            "marks",
            "multi-session",
            (
                "{s}: ریاضی کے پہلے ٹیسٹ میں صرف 54 نمبر آئے، اف",
                "{s}: اس بار ریاضی میں 63، تھوڑا بہتر",
                "{s}: ریاضی میں 72 آئے!!",
                "{s}: ریاضی کے فائنل میں 85 نمبر، یقین نہیں آ رہا",
            ),
            "سال بھر میں {s} کے ریاضی کے نمبر کیسے بدلے؟",
            ("{s}: {fr} کے ریاضی میں 95 نمبر آئے، وہ تو جینئس ہے",),
        ),
        LongStory(
            "play",
            "return",
            (
                "{s}: اگلے ہفتے اسکول کے ڈرامے کا آڈیشن ہے، میں چڑیل کا کردار کرنا چاہتی ہوں",
                "{s}: جمعے کو ڈرامے کا پہلا شو ہے اور میں چڑیل بنی ہوں!! روز ریہرسل ہوتی ہے",
            ),
            "کیا {s} کو اسکول کے ڈرامے میں وہ کردار ملا جس کا اس نے آڈیشن دیا تھا؟",
            ("{s}: {sis} ایک بار ڈرامے میں آئی تھی اور اپنے سارے ڈائیلاگ بھول گئی",),
        ),
        LongStory(
            "garden",
            "return",
            (
                "{s}: میں اور {fr} اسکول کے پیچھے سبزیوں کی کیاری بنانا چاہتی ہیں",
                "{s}: ہماری اسکول والی کیاری میں ٹماٹر آخرکار لال ہو گئے!",
            ),
            "{s} جو سبزیوں کی کیاری بنانا چاہتی تھی، اس کا کیا ہوا؟",
            ("{s}: ہمارے پڑوسیوں کی سبزیوں کی کیاری بہت بڑی ہے",),
        ),
        LongStory(
            "drill",
            "dated",
            ("{s}: کیمسٹری کے ٹیسٹ کے بیچ میں آگ سے بچاؤ کی مشق ہو گئی، اب ٹیسٹ دوبارہ ہو گا",),
            "{month} میں {s} نے آگ کی مشق کے بارے میں کیا بتایا تھا؟",
            ("{s}: آج پھر آگ سے بچاؤ کی مشق ہوئی، شکر ہے دھوپ تھی",),
        ),
        LongStory(
            "grandpa",
            "dated",
            ("{s}: دادا ابو اس ہفتے ہمارے پاس رہے، ساری شام اپنے جہاز والے دنوں کے قصے سناتے رہے",),
            "{month} میں {s} نے دادا ابو کے آنے کے بارے میں کیا کہا تھا؟",
            ("{s}: دادا ابو کا فون آیا تھا، امتحانوں کے لیے دعائیں دے رہے تھے",),
        ),
    ),
)

AR = LongWords(
    language="ar",
    students=("ليلى", "سلمى", "نور"),
    tutors=("أحمد", "خالد", "يوسف"),
    sisters=("هند", "رنا", "دانة"),
    friends=("ريم", "جنى", "لمى"),
    coaches=("سامي", "ماجد", "فراس"),
    pets=("لولو", "مشمش", "سكر"),
    places=("الفيوم", "جرش", "أبها"),
    months=SHORT_WORDS["ar"].months,
    days=SHORT_WORDS["ar"].days,
    greet_student=(
        "مرحبا أستاذ {t}!",
        "أهلا",
        "مرحبا!",
        "أنا جاهزة يا أستاذ",
        "مساء الخير أستاذ {t}",
        "آسفة على التأخير",
    ),
    greet_tutor=(
        "أهلا {s}! كيف كان يومك؟",
        "مرحبا {s}، هل نبدأ؟",
        "سعيد برؤيتك يا {s}!",
        "أهلا بعودتك يا {s}.",
    ),
    small_talk=(
        "اليوم كان الدوام في المدرسة طويلا جدا",
        "عندي اختبار يوم {day}",
        "المطر ينزل مرة ثانية",
        "أنا تعبانة جدا",
        "ماما تسلم عليك",
        "تعشينا مقلوبة اليوم",
        "الإنترنت بطيء جدا اليوم",
        "{sis} أخذت الشاحن مني مرة ثانية",
        "{sis} مزعجة جدا اليوم",
        "{pet} نامت فوق دفتري",
        "{pet} ظلت تطارد ذبابة طول النهار",
        "تمرين الكابتن {co} كان متعبا جدا",
        "الكابتن {co} خلانا نركض حول الملعب طول الوقت",
        "رجعت مع {fr} إلى البيت",
        "{fr} تسلم عليك",
        "{fr} أعطتني ملخصاتها من يوم {day}",
        "أنا متوترة قليلا من الامتحانات",
        "الباص تأخر مرة ثانية",
        "نسيت الواجب في المدرسة",
        "عندنا مباراة يوم {day}",
        "سهرت أمس على الفيديوهات",
        "غرفتي فوضى",
        "الجو حار جدا اليوم",
        "اشتريت غطاء جديدا للجوال",
    ),
    reaction=(
        "طيب، فهمت.",
        "حقا؟",
        "آه، طيب.",
        "شكرا لأنك أخبرتني.",
        "احكي لي أكثر المرة القادمة.",
        "امم، طيب.",
    ),
    ack=(
        "تمام",
        "تمام!",
        "أوكي",
        "شكرا",
        "شكرا أستاذ!",
        "تمام شكرا",
        "فهمت",
        "منطقي",
        "نعم",
        "امم تمام",
        "آه، فهمت",
        "حاضر",
    ),
    tutor_prompts=(
        "نكمل؟",
        "هل عندك أي سؤال حتى الآن؟",
        "ننتقل إلى التالي؟",
        "هل الكلام واضح؟",
    ),
    bye_student=(
        "تمام، مع السلامة!",
        "شكرا، أراك لاحقا!",
        "لازم أروح، باي",
        "شكرا أستاذ {t}، مع السلامة!",
        "هذا كل شيء لليوم",
    ),
    bye_tutor=(
        "مع السلامة يا {s}، نلتقي المرة القادمة!",
        "عمل رائع اليوم!",
        "أحسنت يا {s}. نتكلم قريبا.",
        "إلى اللقاء!",
    ),
    ask=(
        "أستاذ، ممكن تشرح {c} مرة ثانية؟",
        "ما معنى {c}؟",
        "لم أفهم {c}",
        "ماذا قلنا عن {c}؟",
        "هل سيأتي سؤال عن {c} في الاختبار؟",
    ),
    check=(
        "اشرحي لي {c} بكلماتك.",
        "لو أردت أن تشرحي {c} لصديقتك، ماذا ستقولين؟",
    ),
    subjects=(
        Subject(
            "التاريخ",
            (
                (
                    "الثورة الصناعية",
                    "كانت الانتقال من العمل اليدوي إلى الآلات والمصانع، وبدأت في بريطانيا نحو "
                    "عام 1760.",
                ),
                (
                    "معاهدة فرساي",
                    "أنهت الحرب العالمية الأولى سنة 1919 وفرضت شروطا قاسية على ألمانيا.",
                ),
                (
                    "الحرب الباردة",
                    "كانت تنافسا طويلا بين أمريكا والاتحاد السوفيتي بعد 1945 دون حرب مباشرة "
                    "بينهما.",
                ),
                (
                    "الدولة العباسية",
                    "حكم العباسيون من بغداد منذ سنة 750، وازدهرت في عهدهم الترجمة والعلوم.",
                ),
                ("النهضة الأوروبية", "كانت إحياء للفنون والعلوم في أوروبا، وبدأت في إيطاليا."),
                ("الثورة الفرنسية", "في 1789 ثار الشعب الفرنسي على الملك وامتيازات النبلاء."),
                ("طريق الحرير", "كان شبكة طرق تجارية تربط الصين بالشرق الأوسط وأوروبا."),
            ),
        ),
        Subject(
            "الأحياء",
            (
                ("الخلية", "الخلية أصغر وحدة للحياة، وكل كائن حي مكون من خلايا."),
                (
                    "الخاصية الأسموزية",
                    "هي انتقال الماء عبر غشاء من المحلول الأقل تركيزا إلى الأعلى تركيزا.",
                ),
                ("الانتشار", "هو انتقال الجزيئات من مكان كثرتها إلى مكان قلتها."),
                (
                    "البناء الضوئي",
                    "تستخدم النباتات الضوء والماء وثاني أكسيد الكربون لصنع الجلوكوز والأكسجين.",
                ),
                ("الانقسام المتساوي", "هو انقسام خلية واحدة إلى خليتين متطابقتين."),
                ("الإنزيمات", "الإنزيمات بروتينات تسرع التفاعلات دون أن تستهلك."),
                ("التنفس الخلوي", "يطلق الطاقة من الجلوكوز، وأغلبه يحدث في الميتوكوندريا."),
            ),
        ),
    ),
    stopwords=_stopwords(
        """في من إلى على عن مع أو ما ماذا بماذا كيف أين متى لماذا هل أي هو هي هم أنا
        أنت نحن كان كانت قد لقد هذا هذه ذلك تلك التي الذي لا لم لن ثم أن إن يا عند عندي
        أستاذ الكابتن لي""",
        "ar",
    ),
    stories=(
        LongStory(
            "ankle",
            "single",
            ("{s}: التوى كاحلي في التمرين، والكابتن {co} أبعدني عن المباراتين القادمتين",),
            "ماذا أصاب كاحل {s}؟",
            ("{s}: {fr} أصيبت في كاحلها السنة الماضية وما زالت تنزل الدرج بحذر",),
        ),
        LongStory(
            "fair",
            "single",
            ("{s}: مشروعي لمعرض العلوم سيكون عن سبب ذوبان الثلج أسرع مع الملح",),
            "عن ماذا مشروع {s} في معرض العلوم؟",
            ("{s}: {fr} فازت في معرض العلوم السنة الماضية بفرن شمسي",),
        ),
        LongStory(
            "university",
            "single",
            ("{s}: {sis} قبلت في جامعة القاهرة! ستنتقل إلى السكن الجامعي في سبتمبر",),
            "في أي جامعة ستدرس أخت {s}؟",
            ("{s}: أخو {fr} ترك الجامعة بعد فصل دراسي واحد",),
        ),
        LongStory(
            "pet",
            "paraphrase",
            ("{s}: {pet} قطة شيرازي بيضاء، صار عمرها خمس سنوات",),
            "ما نوع الحيوان الأليف الذي تربيه {s}؟",
            ("{s}: {fr} تريد حيوانا أليفا لكن أمها ترفض",),
        ),
        LongStory(
            "farm",
            "paraphrase",
            (
                "{s}: المدرسة كانت مغلقة فقضينا الأسبوع كله في مزرعة جدي في {place}، وكنت أقطف "
                "الزيتون كل صباح",
            ),
            "أين ذهبت {s} في الإجازة؟",
            ("{s}: {fr} ستسافر إلى دبي في الإجازة",),
        ),
        LongStory(
            "novel",
            "paraphrase",
            ("{s}: أخيرا أنهيت الرواية عن الفتاة التي تعيش في المنارة، بكيت في النهاية",),
            "ما الكتاب الذي قرأته {s} مؤخرا وكيف وجدته؟",
            ("{s}: لازم أرجع كتاب المكتبة يوم {day}",),
        ),
        LongStory(
            "career",
            "paraphrase",
            ("{s}: عندما أكبر أريد أن أصبح طبيبة بيطرية، هذا حلمي منذ كان عمري ست سنوات",),
            "ما المهنة التي تطمح إليها {s} في المستقبل؟",
            ("{s}: {sis} تريد مهنة في الطيران، هي مهووسة بالطائرات",),
        ),
        LongStory(
            "birthday",
            "reply",
            ("{s}: رحنا نلعب البولينغ وبعدها أكلنا آيس كريم، انبسطت كثيرا",),
            "كيف احتفلت {s} بعيد ميلاد أختها؟",
            ("{s}: عيد ميلاد {fr} الشهر القادم ولا أعرف ماذا أهديها",),
            prompt="{t}: إذن، ماذا فعلتم في عيد ميلاد {sis}؟",
        ),
        LongStory(
            "tip",
            "reply",
            ("{t}: قسميها إلى أجزاء صغيرة، ورددي كل جزء بصوت عال قبل النوم.",),
            "ما النصيحة التي قدمها {t} إلى {s} لتتذكر المعلومات في الامتحان؟",
            ("{s}: في الامتحان الماضي نسيت نصف الأسئلة",),
            prompt="{s}: أستاذ، عندك نصيحة لأتذكر المعلومات في الامتحان؟ أنسى كل شيء",
        ),
        LongStory(
            "match",
            "reply",
            ("{s}: خسرنا 3-1 لكن أنا سجلت هدفنا الوحيد!!",),
            "كيف كانت نتيجة فريق {s} في مباراة السبت؟",
            ("{s}: يوم السبت عندنا مباراة ثانية ضد أقوى فريق في الدوري",),
            prompt="{t}: كيف كانت مباراة السبت؟",
        ),
        LongStory(
            "essay",
            "reply",
            ("{t}: اكتبي الخاتمة أولا، ثم ارجعي خطوة خطوة حتى الجملة الأولى.",),
            "بماذا نصح {t} {s} عندما لم تعرف كيف تبدأ موضوع التعبير؟",
            ("{s}: أخذت جيد في موضوع التعبير، المعلمة قالت إن آخره كان مستعجلا",),
            prompt="{s}: لا أعرف أبدا كيف أبدأ موضوع التعبير، أظل أحدق في الورقة الفارغة",
        ),
        LongStory(
            "hobbies",
            "multi-session",
            (
                "{s}: بدأت أتعلم الحياكة، أول وشاح عملته طلع معوجا هههه",
                "{s}: سجلت مع {sis} في دورة فخار كل خميس مساء",
                "{s}: أتعلم التزلج على اللوح، وقعت اليوم حوالي عشر مرات",
            ),
            "ما الهوايات الجديدة عند {s} هذه السنة؟",
            ("{s}: {fr} عندها هوايات كثيرة، حتى الرماية بالقوس",),
        ),
        LongStory(
            "money",
            "multi-session",
            (
                "{s}: جلست مع توأم الجيران، وأعطوني عشرين دينارا!",
                "{s}: لقيت شغلا كل سبت في المخبز قرب السوق!",
            ),
            "كيف تكسب {s} المال؟",
            ("{s}: {sis} تصرف كل المال الذي تأخذه على تذاكر الحفلات",),
        ),
        LongStory(
            "marks",
            "multi-session",
            (
                "{s}: أخذت 54 فقط في أول اختبار رياضيات، أف",
                "{s}: 63 في الرياضيات هذه المرة، أحسن قليلا",
                "{s}: جبت 72 في الرياضيات!!",
                "{s}: 85 في الاختبار النهائي للرياضيات، لا أصدق",
            ),
            "كيف تغيرت علامات {s} في الرياضيات خلال السنة؟",
            ("{s}: {fr} أخذت 95 في اختبار الرياضيات، عبقرية",),
        ),
        LongStory(
            "play",
            "return",
            (
                "{s}: الأسبوع القادم عندي تجربة أداء لمسرحية المدرسة، أريد دور الساحرة",
                "{s}: العرض الأول يوم الجمعة وأنا الساحرة!! بروفات كل يوم",
            ),
            "هل حصلت {s} على الدور الذي أرادته في مسرحية المدرسة؟",
            ("{s}: {sis} شاركت في مسرحية مرة ونسيت كل كلامها",),
        ),
        LongStory(
            "garden",
            "return",
            (
                "{s}: أريد مع {fr} أن نزرع حديقة خضار خلف المدرسة",
                "{s}: الطماطم في حديقة المدرسة صارت حمراء أخيرا!",
            ),
            "ماذا حدث لحديقة الخضار التي أرادت {s} أن تزرعها؟",
            ("{s}: جيراننا عندهم حديقة خضار كبيرة جدا",),
        ),
        LongStory(
            "drill",
            "dated",
            ("{s}: صار تدريب إخلاء حريق في نص اختبار الكيمياء، ولازم نعيده",),
            "ماذا قالت {s} في {month} عن تدريب الإخلاء؟",
            ("{s}: اليوم تدريب إخلاء مرة ثانية، الحمد لله كان الجو مشمسا",),
        ),
        LongStory(
            "grandpa",
            "dated",
            ("{s}: زارنا جدي هذا الأسبوع، وكل مساء يحكي لنا قصص أيامه في البحر",),
            "ماذا حكت {s} في {month} عن قصص جدها؟",
            ("{s}: جدي اتصل وقال إن عنده قصص جديدة سيحكيها لنا في العيد",),
        ),
    ),
)

WORDS: Final[dict[str, LongWords]] = {w.language: w for w in (EN, ES, ID, UR, AR)}
STOPWORDS: Final[dict[str, frozenset[str]]] = {k: w.stopwords for k, w in WORDS.items()}


# The tutor's answer to a student's news as a chat model writes it (``--echoing-tutor``): the
# news's own word said back ("{echo}"), fitting good news and bad as ``reaction`` does.
ECHOES: Final[dict[str, tuple[str, ...]]] = {
    "en": (
        "Oh, {echo}? Tell me more about that.",
        "{echo}, really? Thanks for telling me.",
        "Hmm, {echo}. How do you feel about it?",
    ),
    "es": (
        "¿{echo}? Cuéntame más.",
        "¿En serio, {echo}? Gracias por contármelo.",
        "Mmm, {echo}. ¿Y cómo te sientes?",
    ),
    "id": (
        "Oh, {echo}? Ceritakan lagi.",
        "{echo}, ya? Terima kasih sudah cerita.",
        "Hmm, {echo}. Bagaimana perasaanmu?",
    ),
    "ur": (
        "اچھا، {echo}؟ مجھے اور بتاؤ۔",
        "{echo}؟ بتانے کا شکریہ۔",
        "ہمم، {echo}۔ تمہیں کیسا لگ رہا ہے؟",
    ),
    "ar": (
        "حقًا، {echo}؟ أخبريني المزيد.",
        "{echo}؟ شكرًا لأنك أخبرتني.",
        "همم، {echo}. وكيف تشعرين؟",
    ),
}


def echoed(text: str, language: str, names: Iterable[str] = ()) -> str:
    """The word of ``text`` a tutor would say back: its longest content word as written (no
    name, no stopword, no number; the first of equal length), or "" if it has none."""
    keep = content_words(text, language, names)
    best = ""
    for token in re.findall(r"\w+", text):
        folded = token.casefold()
        kept = (_bare(folded) if language == "ar" else folded) in keep
        if kept and not token.isdigit() and len(token) > len(best):
            best = token
    return best
