"""What the synthetic conversations say, in five languages (written for this bench).

Every template may use ``{s}`` (the student's name), ``{t}`` (the tutor's), ``{c}`` (a concept)
and ``{day}`` (a weekday). Students are girls in every language, so the questions can say "her"
and Arabic and Urdu verbs agree with one form.

A story is what a question is about: its evidence lines (each said in a different session when
there are several) and the question asked months later. Categories:

* ``single``: one evidence line that shares a distinctive word with the question;
* ``paraphrase``: one evidence line that shares no word with the question (checked by a test);
* ``multi-hop``: two to four evidence lines in different sessions, all needed;
* ``return``: a topic raised early and taken up again after a gap of two months or more;
* ``dated``: the question names the month (``{month}``) in which the evidence was said.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Story:
    key: str
    category: str
    evidence: tuple[str, ...]
    question: str


@dataclass(frozen=True)
class Words:
    language: str
    students: tuple[str, ...]
    tutors: tuple[str, ...]
    months: tuple[str, ...]
    days: tuple[str, ...]
    greet_student: tuple[str, ...]
    greet_tutor: tuple[str, ...]
    # small talk, then near misses: lines that share a question's words or meaning without
    # answering it (a nurse in the ER, a dog shelter, a knee hurt running)
    small_talk: tuple[str, ...]
    reply: tuple[str, ...]  # the tutor's answer to small talk and to a story
    bye_student: tuple[str, ...]
    bye_tutor: tuple[str, ...]
    concepts: tuple[tuple[str, str], ...]  # (name, the tutor's one-line explanation)
    ask: tuple[str, ...]
    check: str  # the tutor checks understanding
    ack: tuple[str, ...]
    stories: tuple[Story, ...]


CATEGORIES: Final = ("single", "paraphrase", "multi-hop", "return", "dated")

EN = Words(
    language="en",
    students=("Maya", "Emma"),
    tutors=("Sam", "Alex"),
    months=(
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    days=("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    greet_student=(
        "hi {t}!",
        "hello {t}",
        "good morning!",
        "hey, I'm back",
        "hi, got time to study?",
    ),
    greet_tutor=(
        "Hi {s}! How was your day?",
        "Welcome back, {s}. What shall we study today?",
        "Hello {s}, good to see you again.",
    ),
    small_talk=(
        "school was so boring today",
        "I have a math test on {day}",
        "it's raining again here",
        "I watched a movie with my friends on {day}",
        "I'm tired, I slept badly",
        "my mom says hi",
        "my brother ate all the cookies again",
        "we had pizza for dinner",
        "my phone battery keeps dying",
        "I finished my history essay on {day}",
        "our football team lost on {day}",
        "I'm so hungry lol",
        "my friend's mom works as a nurse in the ER",
        "I want to bake a cake for my mom's birthday",
        "there's a dog shelter near our school",
        "I hurt my knee running last year",
        "my aunt just started a new job at a bank",
        "our neighbour's dog barks all night",
        "I love listening to piano music while I study",
        "my physics exam is next week",
        "my best friend went to the beach for the holidays",
        "my cousin won a math competition last year",
        "my aunt's birthday party was fun, we danced a lot",
    ),
    reply=(
        "Oh no! How are you feeling?",
        "That sounds fun!",
        "Haha, I see.",
        "Good luck, you'll do great.",
        "Thanks for telling me.",
        "Nice! Tell me more later.",
    ),
    bye_student=("thanks, bye!", "ok that's all for today", "gotta go, see you"),
    bye_tutor=("Great work today, see you soon!", "Well done, {s}. Bye for now."),
    concepts=(
        ("a cell", "A cell is the smallest unit of life; every living thing is made of cells."),
        (
            "osmosis",
            "Osmosis is water moving through a membrane from a dilute solution to a "
            "concentrated one.",
        ),
        (
            "diffusion",
            "Diffusion is particles spreading from where they are crowded to where they are few.",
        ),
        (
            "photosynthesis",
            "In photosynthesis plants use light, water and carbon dioxide to make sugar and "
            "oxygen.",
        ),
        ("mitosis", "Mitosis is a cell dividing into two identical daughter cells."),
        ("an enzyme", "Enzymes are proteins that speed up reactions without being used up."),
        ("DNA", "DNA carries the instructions of a cell in its sequence of bases."),
        ("respiration", "Respiration releases energy from glucose inside the mitochondria."),
    ),
    ask=(
        "what is {c}?",
        "can you explain {c} again?",
        "I still don't understand {c}",
        "will {c} be on the test?",
    ),
    check="Let's check: tell me in your own words what {c} is.",
    ack=("ok I get it now", "hmm, not really", "makes sense, thanks"),
    stories=(
        Story(
            "er",
            "single",
            (
                "{s}: I was in the ER until 2 am, my little brother broke his arm on the "
                "trampoline.",
            ),
            "Why did {s} end up in the ER?",
        ),
        Story(
            "bread",
            "single",
            ("{s}: My grandmother taught me how to bake sourdough bread this weekend.",),
            "Who taught {s} to bake sourdough?",
        ),
        Story(
            "shelter",
            "single",
            ("{s}: I signed up to volunteer at the animal shelter every Saturday.",),
            "At which shelter does {s} volunteer?",
        ),
        Story(
            "membrane",
            "single",
            ("{t}: The membrane lets water through but not salt, so a cell in pure water swells.",),
            "What did {t} say about a cell swelling in pure water?",
        ),
        Story(
            "wrist",
            "paraphrase",
            ("{s}: I twisted my wrist playing volleyball, so typing hurts.",),
            "Which sport left her hand injured?",
        ),
        Story(
            "job",
            "paraphrase",
            ("{s}: Dad lost his job at the factory, things are tense at home.",),
            "Is her family short of money since her father became unemployed?",
        ),
        Story(
            "kitten",
            "paraphrase",
            ("{s}: We adopted a kitten and named her Luna.",),
            "What do they call their new feline?",
        ),
        Story(
            "instruments",
            "multi-hop",
            (
                "{s}: I started guitar lessons with my uncle.",
                "{s}: I quit guitar, now I play violin in the school orchestra.",
            ),
            "Which instruments has {s} learned to play?",
        ),
        Story(
            "exams",
            "multi-hop",
            (
                "{s}: I got 12 out of 20 on my first chemistry exam, not great.",
                "{s}: Second chemistry exam: 15 out of 20!",
                "{s}: Final chemistry exam, 18 out of 20, I'm so proud.",
            ),
            "How did {s}'s chemistry exam scores change over the year?",
        ),
        Story(
            "trip",
            "multi-hop",
            (
                "{s}: We're planning a trip to the mountains for the holidays.",
                "{s}: Booked the train tickets for our mountain trip.",
                "{s}: I bought new hiking boots for the trip.",
                "{s}: Back from the mountains, we saw snow for the first time!",
            ),
            "How did {s}'s mountain trip go, from the planning to the end?",
        ),
        Story(
            "olympiad",
            "return",
            (
                "{s}: I want to try out for the science olympiad this year.",
                "{s}: Big news: I made it to the national round of the olympiad!",
            ),
            "Did {s} get anywhere with the science olympiad?",
        ),
        Story(
            "wedding",
            "dated",
            ("{s}: My cousin's wedding was amazing, we danced until midnight.",),
            "What did {s} tell you in {month} about the wedding?",
        ),
    ),
)

ES = Words(
    language="es",
    students=("Lucía", "Sofía"),
    tutors=("Diego", "Marta"),
    months=(
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ),
    days=("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"),
    greet_student=(
        "¡hola {t}!",
        "buenas tardes",
        "hola, ya volví",
        "¿tienes tiempo para estudiar?",
    ),
    greet_tutor=(
        "¡Hola {s}! ¿Qué tal tu día?",
        "Bienvenida otra vez, {s}. ¿Qué estudiamos hoy?",
        "Hola {s}, me alegra verte.",
    ),
    small_talk=(
        "hoy el colegio fue muy aburrido",
        "tengo examen de mates el {day}",
        "aquí sigue lloviendo",
        "vi una película con mis amigas el {day}",
        "estoy cansada, dormí fatal",
        "mi mamá te manda saludos",
        "mi hermano se comió todas las galletas otra vez",
        "cenamos pizza",
        "la batería del móvil no me dura nada",
        "terminé el ensayo de historia el {day}",
        "nuestro equipo de fútbol perdió el {day}",
        "tengo mucha hambre jaja",
        "la madre de mi amiga es enfermera en urgencias",
        "quiero hacer un pastel para el cumpleaños de mi mamá",
        "hay un refugio de perros cerca del colegio",
        "el año pasado me hice daño en la rodilla corriendo",
        "mi tía empezó un trabajo nuevo en un banco",
        "el perro del vecino ladra toda la noche",
        "me encanta escuchar música de piano mientras estudio",
        "mi examen de física es la semana que viene",
        "mi mejor amiga se fue a la playa en vacaciones",
        "mi primo ganó un concurso de matemáticas el año pasado",
        "la fiesta de cumpleaños de mi tía fue divertida, bailamos mucho",
    ),
    reply=(
        "¡Vaya! ¿Cómo te sientes?",
        "¡Qué divertido!",
        "Jaja, ya veo.",
        "Mucha suerte, te irá genial.",
        "Gracias por contármelo.",
        "¡Genial! Luego me cuentas más.",
    ),
    bye_student=("gracias, ¡adiós!", "vale, eso es todo por hoy", "me tengo que ir, hasta luego"),
    bye_tutor=("¡Buen trabajo hoy, hasta pronto!", "Muy bien, {s}. Nos vemos."),
    concepts=(
        (
            "la célula",
            "La célula es la unidad más pequeña de la vida; todo ser vivo está hecho de células.",
        ),
        (
            "la ósmosis",
            "La ósmosis es el paso del agua a través de una membrana desde la solución diluida "
            "a la concentrada.",
        ),
        (
            "la difusión",
            "La difusión es el movimiento de partículas desde donde hay muchas hacia donde hay "
            "pocas.",
        ),
        (
            "la fotosíntesis",
            "En la fotosíntesis las plantas usan luz, agua y dióxido de carbono para fabricar "
            "azúcar y oxígeno.",
        ),
        ("la mitosis", "La mitosis es la división de una célula en dos células hijas idénticas."),
        ("las enzimas", "Las enzimas son proteínas que aceleran las reacciones sin gastarse."),
        ("el ADN", "El ADN guarda las instrucciones de la célula en su secuencia de bases."),
        (
            "la respiración",
            "La respiración libera energía de la glucosa dentro de las mitocondrias.",
        ),
    ),
    ask=(
        "¿me explicas otra vez {c}?",
        "sigo sin entender {c}",
        "¿{c} entra en el examen?",
        "no me queda claro {c}",
    ),
    check="Comprobemos: explícame con tus palabras {c}.",
    ack=("vale, ya lo entiendo", "mmm, no del todo", "tiene sentido, gracias"),
    stories=(
        Story(
            "er",
            "single",
            (
                "{s}: Estuve en urgencias hasta las 2 de la mañana, mi hermano pequeño se rompió "
                "el brazo en la cama elástica.",
            ),
            "¿Por qué terminó {s} en urgencias?",
        ),
        Story(
            "bread",
            "single",
            ("{s}: Mi abuela me enseñó a hacer pan de masa madre este fin de semana.",),
            "¿Quién le enseñó a {s} a hacer pan de masa madre?",
        ),
        Story(
            "shelter",
            "single",
            ("{s}: Me apunté como voluntaria en el refugio de animales todos los sábados.",),
            "¿En qué refugio es voluntaria {s}?",
        ),
        Story(
            "membrane",
            "single",
            (
                "{t}: La membrana deja pasar el agua pero no la sal, por eso una célula en agua "
                "pura se hincha.",
            ),
            "¿Qué dijo {t} sobre una célula que se hincha en agua pura?",
        ),
        Story(
            "wrist",
            "paraphrase",
            ("{s}: Me torcí la muñeca jugando al voleibol y me duele escribir.",),
            "¿Qué deporte le causó una lesión en su mano?",
        ),
        Story(
            "job",
            "paraphrase",
            ("{s}: Papá perdió su trabajo en la fábrica, en casa el ambiente está tenso.",),
            "¿Hay apuros económicos desde que despidieron al padre?",
        ),
        Story(
            "kitten",
            "paraphrase",
            ("{s}: Adoptamos una gatita y la llamamos Luna.",),
            "¿Qué nombre recibió su nuevo felino?",
        ),
        Story(
            "instruments",
            "multi-hop",
            (
                "{s}: Empecé clases de guitarra con mi tío.",
                "{s}: Dejé la guitarra, ahora toco el violín en la orquesta del colegio.",
            ),
            "¿Qué instrumentos ha estudiado {s} en sus clases de música?",
        ),
        Story(
            "exams",
            "multi-hop",
            (
                "{s}: Saqué 12 sobre 20 en mi primer examen de química, nada bueno.",
                "{s}: Segundo examen de química: ¡15 sobre 20!",
                "{s}: Último examen de química, 18 sobre 20, estoy orgullosísima.",
            ),
            "¿Cómo cambiaron las notas de química de {s} durante el curso?",
        ),
        Story(
            "trip",
            "multi-hop",
            (
                "{s}: Estamos planeando un viaje a la montaña para las vacaciones.",
                "{s}: Ya reservamos los billetes de tren para el viaje a la montaña.",
                "{s}: Me compré botas nuevas de senderismo para el viaje.",
                "{s}: ¡Volvimos de la montaña, vimos nieve por primera vez!",
            ),
            "¿Cómo fue el viaje a la montaña de {s}, desde la planificación hasta el final?",
        ),
        Story(
            "olympiad",
            "return",
            (
                "{s}: Este año quiero presentarme a la olimpiada de ciencias.",
                "{s}: ¡Noticia: pasé a la fase nacional de la olimpiada!",
            ),
            "¿Llegó {s} a algo con la olimpiada de ciencias?",
        ),
        Story(
            "wedding",
            "dated",
            ("{s}: La boda de mi prima fue increíble, bailamos hasta medianoche.",),
            "¿Qué te contó {s} en {month} sobre la boda?",
        ),
    ),
)

ID = Words(
    language="id",
    students=("Putri", "Sari"),
    tutors=("Budi", "Rina"),
    months=(
        "Januari",
        "Februari",
        "Maret",
        "April",
        "Mei",
        "Juni",
        "Juli",
        "Agustus",
        "September",
        "Oktober",
        "November",
        "Desember",
    ),
    days=("Senin", "Selasa", "Rabu", "Kamis", "Jumat", "Sabtu", "Minggu"),
    greet_student=("hai {t}!", "selamat sore", "halo, aku balik lagi", "kak, ada waktu belajar?"),
    greet_tutor=(
        "Hai {s}! Bagaimana harimu?",
        "Selamat datang lagi, {s}. Hari ini kita belajar apa?",
        "Halo {s}, senang bertemu lagi.",
    ),
    small_talk=(
        "sekolah hari ini membosankan banget",
        "aku ada ulangan matematika hari {day}",
        "di sini hujan terus",
        "aku nonton film sama teman-teman hari {day}",
        "aku capek, tidurku jelek",
        "ibuku titip salam",
        "adikku menghabiskan semua kue lagi",
        "kami makan pizza buat makan malam",
        "baterai HP-ku cepat habis",
        "aku selesai menulis esai sejarah hari {day}",
        "tim sepak bola kami kalah hari {day}",
        "aku lapar banget wkwk",
        "ibu temanku kerja jadi perawat di UGD",
        "aku mau bikin kue untuk ulang tahun ibuku",
        "ada penampungan anjing dekat sekolah kami",
        "tahun lalu lututku cedera waktu lari",
        "tanteku baru mulai kerja di bank",
        "anjing tetangga menggonggong sepanjang malam",
        "aku suka dengar musik piano sambil belajar",
        "ujian fisikaku minggu depan",
        "sahabatku liburan ke pantai",
        "sepupuku menang lomba matematika tahun lalu",
        "pesta ulang tahun tanteku seru, kami banyak menari",
    ),
    reply=(
        "Aduh! Bagaimana perasaanmu?",
        "Seru sekali!",
        "Haha, begitu ya.",
        "Semoga sukses, kamu pasti bisa.",
        "Terima kasih sudah cerita.",
        "Keren! Nanti cerita lagi ya.",
    ),
    bye_student=("makasih, dah!", "oke, segitu dulu hari ini", "aku harus pergi, sampai jumpa"),
    bye_tutor=("Kerja bagus hari ini, sampai jumpa!", "Hebat, {s}. Sampai nanti."),
    concepts=(
        ("sel", "Sel adalah satuan terkecil kehidupan; semua makhluk hidup tersusun dari sel."),
        (
            "osmosis",
            "Osmosis adalah perpindahan air melalui membran dari larutan encer ke larutan pekat.",
        ),
        (
            "difusi",
            "Difusi adalah perpindahan partikel dari tempat yang padat ke tempat yang jarang.",
        ),
        (
            "fotosintesis",
            "Dalam fotosintesis tumbuhan memakai cahaya, air dan karbon dioksida untuk membuat "
            "gula dan oksigen.",
        ),
        ("mitosis", "Mitosis adalah pembelahan satu sel menjadi dua sel anak yang identik."),
        ("enzim", "Enzim adalah protein yang mempercepat reaksi tanpa ikut habis."),
        ("DNA", "DNA menyimpan instruksi sel dalam urutan basanya."),
        ("respirasi", "Respirasi melepaskan energi dari glukosa di dalam mitokondria."),
    ),
    ask=(
        "{c} itu apa?",
        "bisa jelaskan {c} lagi?",
        "aku masih belum paham {c}",
        "apakah {c} keluar di ujian?",
    ),
    check="Coba jelaskan dengan kata-katamu sendiri apa itu {c}.",
    ack=("oke, sekarang aku paham", "hmm, belum terlalu", "masuk akal, makasih"),
    stories=(
        Story(
            "er",
            "single",
            (
                "{s}: Aku di UGD sampai jam 2 pagi, adikku patah tangan karena jatuh dari "
                "trampolin.",
            ),
            "Kenapa {s} sampai ke UGD?",
        ),
        Story(
            "bread",
            "single",
            ("{s}: Nenekku mengajariku membuat roti sourdough akhir pekan ini.",),
            "Siapa yang mengajari {s} membuat roti sourdough?",
        ),
        Story(
            "shelter",
            "single",
            ("{s}: Aku mendaftar jadi relawan di penampungan hewan setiap Sabtu.",),
            "Di penampungan mana {s} menjadi relawan?",
        ),
        Story(
            "membrane",
            "single",
            (
                "{t}: Membran meloloskan air tapi tidak garam, jadi sel di air murni akan "
                "menggembung.",
            ),
            "Apa kata {t} tentang sel yang menggembung di air murni?",
        ),
        Story(
            "wrist",
            "paraphrase",
            ("{s}: Pergelangan tanganku terkilir waktu main voli, jadi sakit kalau mengetik.",),
            "Olahraga apa yang membuatnya cedera?",
        ),
        Story(
            "job",
            "paraphrase",
            ("{s}: Ayah kehilangan pekerjaan di pabrik, suasana di rumah jadi tegang.",),
            "Apakah keluarganya kesulitan uang sejak bapaknya menganggur?",
        ),
        Story(
            "kitten",
            "paraphrase",
            ("{s}: Kami mengadopsi anak kucing dan memberinya nama Luna.",),
            "Apa panggilan hewan peliharaan baru keluarga itu?",
        ),
        Story(
            "instruments",
            "multi-hop",
            (
                "{s}: Aku mulai les gitar dengan pamanku.",
                "{s}: Aku berhenti main gitar, sekarang aku main biola di orkestra sekolah.",
            ),
            "Alat musik apa saja yang pernah {s} mainkan?",
        ),
        Story(
            "exams",
            "multi-hop",
            (
                "{s}: Nilai ujian kimia pertamaku 12 dari 20, kurang bagus.",
                "{s}: Ujian kimia kedua: 15 dari 20!",
                "{s}: Ujian kimia terakhir, 18 dari 20, aku bangga sekali.",
            ),
            "Bagaimana perkembangan nilai ujian kimia {s} selama setahun?",
        ),
        Story(
            "trip",
            "multi-hop",
            (
                "{s}: Kami merencanakan liburan ke gunung.",
                "{s}: Tiket kereta untuk perjalanan ke gunung sudah dipesan.",
                "{s}: Aku beli sepatu mendaki baru untuk perjalanan itu.",
                "{s}: Sudah pulang dari gunung, kami melihat salju untuk pertama kali!",
            ),
            "Bagaimana perjalanan {s} ke gunung, dari rencana sampai selesai?",
        ),
        Story(
            "olympiad",
            "return",
            (
                "{s}: Tahun ini aku mau ikut seleksi olimpiade sains.",
                "{s}: Kabar besar: aku lolos ke babak nasional olimpiade!",
            ),
            "Apakah {s} berhasil di olimpiade sains?",
        ),
        Story(
            "wedding",
            "dated",
            ("{s}: Pernikahan sepupuku seru sekali, kami menari sampai tengah malam.",),
            "Apa yang {s} ceritakan pada bulan {month} tentang pernikahan itu?",
        ),
    ),
)

UR = Words(
    language="ur",
    students=("عائشہ", "زینب"),
    tutors=("احمد", "سارہ"),
    months=(
        "جنوری",
        "فروری",
        "مارچ",
        "اپریل",
        "مئی",
        "جون",
        "جولائی",
        "اگست",
        "ستمبر",
        "اکتوبر",
        "نومبر",
        "دسمبر",
    ),
    days=("پیر", "منگل", "بدھ", "جمعرات", "جمعہ", "ہفتہ", "اتوار"),
    greet_student=(
        "السلام علیکم {t}!",
        "ہیلو",
        "میں واپس آ گئی",
        "کیا آپ کے پاس پڑھنے کا وقت ہے؟",
    ),
    greet_tutor=(
        "وعلیکم السلام {s}! آپ کا دن کیسا رہا؟",
        "خوش آمدید {s}، آج ہم کیا پڑھیں؟",
        "ہیلو {s}، آپ سے مل کر خوشی ہوئی۔",
    ),
    small_talk=(
        "آج اسکول بہت بورنگ تھا",
        "{day} کو میرا ریاضی کا ٹیسٹ ہے",
        "یہاں پھر بارش ہو رہی ہے",
        "میں نے {day} کو دوستوں کے ساتھ فلم دیکھی",
        "میں تھکی ہوئی ہوں، رات کو نیند ٹھیک نہیں آئی",
        "امی آپ کو سلام کہہ رہی ہیں",
        "میرے بھائی نے پھر سارے بسکٹ کھا لیے",
        "ہم نے رات کے کھانے میں پیزا کھایا",
        "میرے فون کی بیٹری جلدی ختم ہو جاتی ہے",
        "میں نے {day} کو تاریخ کا مضمون مکمل کیا",
        "ہماری فٹبال ٹیم {day} کو ہار گئی",
        "مجھے بہت بھوک لگی ہے ہاہا",
        "میری دوست کی امی ایمرجنسی میں نرس ہیں",
        "میں امی کی سالگرہ کے لیے کیک بنانا چاہتی ہوں",
        "ہمارے اسکول کے پاس کتوں کی ایک پناہ گاہ ہے",
        "پچھلے سال دوڑتے ہوئے میرا گھٹنا زخمی ہوا تھا",
        "میری خالہ نے ایک بینک میں نئی نوکری شروع کی ہے",
        "پڑوسیوں کا کتا ساری رات بھونکتا ہے",
        "مجھے پڑھتے ہوئے پیانو کی موسیقی سننا پسند ہے",
        "میرا فزکس کا امتحان اگلے ہفتے ہے",
        "میری سہیلی چھٹیوں میں سمندر کے کنارے گئی",
        "میرے کزن نے پچھلے سال ریاضی کا مقابلہ جیتا",
        "خالہ کی سالگرہ کی پارٹی مزے کی تھی، ہم نے بہت ناچا",
    ),
    reply=(
        "اوہ! اب آپ کیسا محسوس کر رہی ہیں؟",
        "یہ تو مزے کی بات ہے!",
        "ہاہا، اچھا۔",
        "گڈ لک، آپ بہت اچھا کریں گی۔",
        "بتانے کا شکریہ۔",
        "زبردست! بعد میں اور بتائیں۔",
    ),
    bye_student=("شکریہ، خدا حافظ!", "ٹھیک ہے، آج کے لیے بس اتنا", "مجھے جانا ہے، پھر ملیں گے"),
    bye_tutor=("آج بہت اچھا کام کیا، پھر ملیں گے!", "شاباش {s}، خدا حافظ۔"),
    concepts=(
        ("خلیہ", "خلیہ زندگی کی سب سے چھوٹی اکائی ہے؛ ہر جاندار خلیوں سے بنا ہے۔"),
        (
            "اوسموسس",
            "اوسموسس میں پانی جھلی کے پار ہلکے محلول سے گاڑھے محلول کی طرف جاتا ہے۔",
        ),
        (
            "ڈفیوژن",
            "ڈفیوژن میں ذرات زیادہ ہجوم والی جگہ سے کم ہجوم والی جگہ کی طرف پھیلتے ہیں۔",
        ),
        (
            "ضیائی تالیف",
            "ضیائی تالیف میں پودے روشنی، پانی اور کاربن ڈائی آکسائیڈ سے شکر اور آکسیجن بناتے ہیں۔",
        ),
        ("مائٹوسس", "مائٹوسس میں ایک خلیہ تقسیم ہو کر دو ایک جیسے خلیے بناتا ہے۔"),
        ("خامرے", "خامرے پروٹین ہیں جو خود خرچ ہوئے بغیر تعامل کو تیز کرتے ہیں۔"),
        ("ڈی این اے", "ڈی این اے خلیے کی ہدایات کو اپنی بیسز کی ترتیب میں رکھتا ہے۔"),
        ("تنفس", "تنفس مائٹوکونڈریا کے اندر گلوکوز سے توانائی خارج کرتا ہے۔"),
    ),
    ask=(
        "{c} کیا ہے؟",
        "کیا آپ {c} دوبارہ سمجھا سکتے ہیں؟",
        "مجھے ابھی تک {c} سمجھ نہیں آیا",
        "کیا {c} ٹیسٹ میں آئے گا؟",
    ),
    check="چلیں دیکھتے ہیں: اپنے الفاظ میں بتائیں کہ {c} کیا ہے۔",
    ack=("ٹھیک ہے، اب سمجھ آ گیا", "ہمم، پوری طرح نہیں", "سمجھ آ گیا، شکریہ"),
    stories=(
        Story(
            "er",
            "single",
            (
                "{s}: میں رات 2 بجے تک ایمرجنسی میں تھی، میرے چھوٹے بھائی کا ٹریمپولین پر "
                "بازو ٹوٹ گیا۔",
            ),
            "{s} ایمرجنسی میں کیوں گئی تھی؟",
        ),
        Story(
            "bread",
            "single",
            ("{s}: اس ہفتے کے آخر میں میری دادی نے مجھے خمیری روٹی بنانا سکھایا۔",),
            "{s} کو خمیری روٹی بنانا کس نے سکھایا؟",
        ),
        Story(
            "shelter",
            "single",
            ("{s}: میں نے ہر ہفتے جانوروں کی پناہ گاہ میں رضاکار کے طور پر نام لکھوایا۔",),
            "{s} کس پناہ گاہ میں رضاکار ہے؟",
        ),
        Story(
            "membrane",
            "single",
            (
                "{t}: جھلی پانی کو گزرنے دیتی ہے مگر نمک کو نہیں، اس لیے خالص پانی میں خلیہ "
                "پھول جاتا ہے۔",
            ),
            "{t} نے خالص پانی میں خلیے کے پھولنے کے بارے میں کیا کہا؟",
        ),
        Story(
            "wrist",
            "paraphrase",
            ("{s}: والی بال کھیلتے ہوئے میری کلائی مڑ گئی، ٹائپ کرنے میں درد ہوتا ہے۔",),
            "کون سی سپورٹس کی وجہ سے اس کا ہاتھ زخمی ہوا؟",
        ),
        Story(
            "job",
            "paraphrase",
            ("{s}: ابو کی فیکٹری والی نوکری چلی گئی، گھر کا ماحول کشیدہ ہے۔",),
            "والد کے بے روزگار ہونے پر خاندان مالی مشکلات میں پڑ گیا؟",
        ),
        Story(
            "kitten",
            "paraphrase",
            ("{s}: ہم نے ایک بلی کا بچہ گود لیا اور اس کا نام لونا رکھا۔",),
            "ان کے نئے پالتو جانور کو کیا پکارتے ہیں؟",
        ),
        Story(
            "instruments",
            "multi-hop",
            (
                "{s}: میں نے اپنے چچا سے گٹار سیکھنا شروع کیا۔",
                "{s}: میں نے گٹار چھوڑ دیا، اب اسکول کے آرکسٹرا میں وائلن بجاتی ہوں۔",
            ),
            "{s} نے کون کون سے ساز بجانا سیکھے ہیں؟",
        ),
        Story(
            "exams",
            "multi-hop",
            (
                "{s}: کیمسٹری کے پہلے امتحان میں میرے 20 میں سے 12 نمبر آئے، اچھے نہیں۔",
                "{s}: کیمسٹری کا دوسرا امتحان: 20 میں سے 15!",
                "{s}: کیمسٹری کا آخری امتحان، 20 میں سے 18، مجھے بہت فخر ہے۔",
            ),
            "سال بھر میں {s} کے کیمسٹری کے امتحانی نمبر کیسے بدلے؟",
        ),
        Story(
            "trip",
            "multi-hop",
            (
                "{s}: ہم چھٹیوں میں پہاڑوں کی سیر کا منصوبہ بنا رہے ہیں۔",
                "{s}: پہاڑوں کے سفر کے لیے ٹرین کے ٹکٹ بک ہو گئے۔",
                "{s}: میں نے سفر کے لیے نئے ہائیکنگ جوتے خریدے۔",
                "{s}: پہاڑوں سے واپس آ گئے، ہم نے پہلی بار برف دیکھی!",
            ),
            "{s} کا پہاڑوں کا سفر منصوبے سے آخر تک کیسا رہا؟",
        ),
        Story(
            "olympiad",
            "return",
            (
                "{s}: میں اس سال سائنس اولمپیاڈ میں حصہ لینا چاہتی ہوں۔",
                "{s}: بڑی خبر: میں اولمپیاڈ کے قومی راؤنڈ میں پہنچ گئی!",
            ),
            "کیا {s} سائنس اولمپیاڈ میں کامیاب ہوئی؟",
        ),
        Story(
            "wedding",
            "dated",
            ("{s}: میری کزن کی شادی زبردست تھی، ہم آدھی رات تک ناچتے رہے۔",),
            "{s} نے {month} میں شادی کے بارے میں کیا بتایا تھا؟",
        ),
    ),
)

AR = Words(
    language="ar",
    students=("ليلى", "مريم"),
    tutors=("سامي", "نور"),
    months=(
        "يناير",
        "فبراير",
        "مارس",
        "أبريل",
        "مايو",
        "يونيو",
        "يوليو",
        "أغسطس",
        "سبتمبر",
        "أكتوبر",
        "نوفمبر",
        "ديسمبر",
    ),
    days=("الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت", "الأحد"),
    greet_student=("مرحبا {t}!", "مساء الخير", "أهلا، عدت", "هل لديك وقت للدراسة؟"),
    greet_tutor=(
        "أهلا {s}! كيف كان يومك؟",
        "مرحبا بعودتك يا {s}. ماذا ندرس اليوم؟",
        "أهلا {s}، سعيد برؤيتك مجددا.",
    ),
    small_talk=(
        "كانت المدرسة مملة جدا اليوم",
        "عندي اختبار رياضيات يوم {day}",
        "ما زالت تمطر هنا",
        "شاهدت فيلما مع صديقاتي يوم {day}",
        "أنا متعبة، لم أنم جيدا",
        "أمي ترسل لك السلام",
        "أخي أكل كل البسكويت مرة أخرى",
        "تناولنا البيتزا على العشاء",
        "بطارية هاتفي تنفد بسرعة",
        "أنهيت مقال التاريخ يوم {day}",
        "خسر فريق كرة القدم عندنا يوم {day}",
        "أنا جائعة جدا هههه",
        "والدة صديقتي تعمل ممرضة في الطوارئ",
        "أريد أن أخبز كعكة لعيد ميلاد أمي",
        "يوجد ملجأ للكلاب قرب مدرستنا",
        "أصيبت ركبتي وأنا أركض السنة الماضية",
        "بدأت خالتي عملا جديدا في بنك",
        "كلب الجيران ينبح طوال الليل",
        "أحب الاستماع إلى موسيقى البيانو وأنا أدرس",
        "امتحان الفيزياء الأسبوع القادم",
        "ذهبت صديقتي المقربة إلى البحر في العطلة",
        "فاز ابن عمي بمسابقة رياضيات السنة الماضية",
        "كانت حفلة عيد ميلاد خالتي ممتعة، رقصنا كثيرا",
    ),
    reply=(
        "أوه! كيف تشعرين الآن؟",
        "يبدو هذا ممتعا!",
        "هههه، فهمت.",
        "بالتوفيق، ستبلين حسنا.",
        "شكرا لأنك أخبرتني.",
        "رائع! أخبريني المزيد لاحقا.",
    ),
    bye_student=("شكرا، مع السلامة!", "حسنا، هذا كل شيء لليوم", "يجب أن أذهب، أراك لاحقا"),
    bye_tutor=("عمل رائع اليوم، أراك قريبا!", "أحسنت يا {s}. إلى اللقاء."),
    concepts=(
        ("الخلية", "الخلية هي أصغر وحدة للحياة، وكل كائن حي مكون من خلايا."),
        (
            "الخاصية الأسموزية",
            "الخاصية الأسموزية هي انتقال الماء عبر غشاء من المحلول المخفف إلى المحلول المركز.",
        ),
        ("الانتشار", "الانتشار هو حركة الجزيئات من مكان مزدحم إلى مكان أقل ازدحاما."),
        (
            "البناء الضوئي",
            "في البناء الضوئي تستخدم النباتات الضوء والماء وثاني أكسيد الكربون لصنع السكر "
            "والأكسجين.",
        ),
        ("الانقسام المتساوي", "الانقسام المتساوي هو انقسام الخلية إلى خليتين متطابقتين."),
        ("الإنزيمات", "الإنزيمات بروتينات تسرع التفاعلات دون أن تستهلك."),
        ("الحمض النووي", "يحمل الحمض النووي تعليمات الخلية في تسلسل قواعده."),
        ("التنفس", "التنفس يطلق الطاقة من الجلوكوز داخل الميتوكوندريا."),
    ),
    ask=(
        "ما معنى {c}؟",
        "هل يمكنك شرح {c} مرة أخرى؟",
        "ما زلت لا أفهم {c}",
        "هل سيأتي {c} في الاختبار؟",
    ),
    check="لنتأكد: اشرحي بكلماتك معنى {c}.",
    ack=("حسنا، فهمت الآن", "همم، ليس تماما", "هذا منطقي، شكرا"),
    stories=(
        Story(
            "er",
            "single",
            ("{s}: بقيت في الطوارئ حتى الثانية فجرا، أخي الصغير كسر ذراعه على الترامبولين.",),
            "لماذا ذهبت {s} إلى الطوارئ؟",
        ),
        Story(
            "bread",
            "single",
            ("{s}: علمتني جدتي هذا الأسبوع كيف أخبز خبز العجين المخمر.",),
            "من علم {s} خبز العجين المخمر؟",
        ),
        Story(
            "shelter",
            "single",
            ("{s}: سجلت متطوعة في ملجأ الحيوانات كل يوم سبت.",),
            "في أي ملجأ تتطوع {s}؟",
        ),
        Story(
            "membrane",
            "single",
            ("{t}: الغشاء يسمح بمرور الماء لا الملح، لذلك تنتفخ الخلية في الماء النقي.",),
            "ماذا قال {t} عن انتفاخ الخلية في الماء النقي؟",
        ),
        Story(
            "wrist",
            "paraphrase",
            ("{s}: التوى معصمي وأنا ألعب الكرة الطائرة، والكتابة تؤلمني.",),
            "أي رياضة سببت إصابة يدها؟",
        ),
        Story(
            "job",
            "paraphrase",
            ("{s}: فقد أبي عمله في المصنع، والجو في البيت متوتر.",),
            "هل تعاني أسرتها ضائقة مالية منذ بطالة والدها؟",
        ),
        Story(
            "kitten",
            "paraphrase",
            ("{s}: تبنينا قطة صغيرة وسميناها لونا.",),
            "بماذا يدعون حيوانهم الأليف الجديد؟",
        ),
        Story(
            "instruments",
            "multi-hop",
            (
                "{s}: بدأت دروس الغيتار مع عمي.",
                "{s}: تركت الغيتار، والآن أعزف الكمان في أوركسترا المدرسة.",
            ),
            "ما الآلات الموسيقية التي أخذت {s} دروسا فيها أو تعزفها الآن؟",
        ),
        Story(
            "exams",
            "multi-hop",
            (
                "{s}: حصلت على 12 من 20 في أول امتحان كيمياء، ليس جيدا.",
                "{s}: امتحان الكيمياء الثاني: 15 من 20!",
                "{s}: آخر امتحان كيمياء، 18 من 20، أنا فخورة جدا.",
            ),
            "كيف تغيرت درجات {s} في امتحانات الكيمياء خلال السنة؟",
        ),
        Story(
            "trip",
            "multi-hop",
            (
                "{s}: نخطط لرحلة إلى الجبال في العطلة.",
                "{s}: حجزنا تذاكر القطار لرحلة الجبال.",
                "{s}: اشتريت حذاء مشي جديدا للرحلة.",
                "{s}: عدنا من الجبال، رأينا الثلج لأول مرة!",
            ),
            "كيف كانت رحلة {s} إلى الجبال من التخطيط حتى النهاية؟",
        ),
        Story(
            "olympiad",
            "return",
            (
                "{s}: أريد أن أشارك في أولمبياد العلوم هذا العام.",
                "{s}: خبر كبير: وصلت إلى المرحلة الوطنية من الأولمبياد!",
            ),
            "هل نجحت {s} في أولمبياد العلوم؟",
        ),
        Story(
            "wedding",
            "dated",
            ("{s}: كان عرس ابنة خالتي رائعا، رقصنا حتى منتصف الليل.",),
            "ماذا أخبرتك {s} في {month} عن العرس؟",
        ),
    ),
)

WORDS: Final = {w.language: w for w in (EN, ES, ID, UR, AR)}
