"""The long set's questions as the student asks them, in five languages (written for this bench).

The turn's question is what the student just wrote: "what kind of dog do I have?", not "What
kind of dog does Maya have?". ``generate_long_conversations(first_person=True)`` asks each
story's question in these words instead (the history is the same, line for line): the
student's name is then in no question, so it cannot match every line, and "my", "I", "you"
stand where the names stood. Each template says what its story's question says in the same
language (``long_words``), and keeps its category's promise (a paraphrase shares no word with
its evidence, a dated question names its month); the tests check both. ``{month}`` is the only
placeholder: the tutor is "you", the sister "my sister".
"""

from __future__ import annotations

from typing import Final

FIRST_PERSON: Final[dict[str, dict[str, str]]] = {
    "en": {
        "ankle": "Do you remember what happened to my ankle?",
        "fair": "What was my science fair project about again?",
        "university": "Which city is my sister going to university in?",
        "pet": "What kind of dog do I have?",
        "farm": "Where did I go during the school holidays?",
        "novel": "Which book did I read recently, and what did I think of it?",
        "career": "What job do I dream of doing one day?",
        "birthday": "How did I celebrate my sister's birthday?",
        "tip": "What tip did you give me for remembering things before exams?",
        "match": "How did my team do in the Saturday game?",
        "essay": "What did you recommend when I was stuck starting an essay?",
        "hobbies": "What new hobbies have I taken up this year?",
        "money": "How have I been earning money?",
        "marks": "How did my maths marks change over the year?",
        "play": "Did I get the part I auditioned for in the school play?",
        "garden": "What became of the vegetable garden I wanted to start?",
        "drill": "What did I tell you in {month} about a fire drill?",
        "grandpa": "What did I say in {month} about my grandpa's visit?",
    },
    "es": {
        "ankle": "¿Te acuerdas de qué me pasó en el tobillo?",
        "fair": "¿De qué trata mi proyecto para la feria de ciencias?",
        "university": "¿En qué ciudad va a estudiar en la universidad mi hermana?",
        "pet": "¿Qué raza de perro tengo?",
        "farm": "¿Adónde fui durante las vacaciones?",
        "novel": "¿Qué libro he leído hace poco y qué me pareció?",
        "career": "¿Con qué profesión sueño?",
        "birthday": "¿Cómo celebré el cumpleaños de mi hermana?",
        "tip": "¿Qué truco me diste para acordarme de todo en un examen?",
        "match": "¿Cómo le fue a mi equipo en el partido del sábado?",
        "essay": "¿Qué me recomendaste cuando no sabía empezar una redacción?",
        "hobbies": "¿Qué aficiones nuevas tengo este año?",
        "money": "¿Cómo he estado ganando dinero?",
        "marks": "¿Cómo fueron cambiando mis notas de mates durante el curso?",
        "play": "¿Conseguí el papel que quería en la obra del instituto?",
        "garden": "¿Qué pasó con el huerto que quería montar?",
        "drill": "¿Qué te conté en {month} sobre un simulacro de incendio?",
        "grandpa": "¿Qué dije en {month} sobre la visita de mi abuelo?",
    },
    "id": {
        "ankle": "Kakak ingat apa yang terjadi dengan pergelangan kakiku?",
        "fair": "Proyek pameran sainsku tentang apa ya?",
        "university": "Di kota mana kakakku akan kuliah?",
        "pet": "Hewan peliharaan apa yang aku punya?",
        "farm": "Aku pergi ke mana waktu liburan?",
        "novel": "Buku apa yang baru saja aku baca, dan bagaimana kesanku?",
        "career": "Apa cita-citaku?",
        "birthday": "Bagaimana aku merayakan ulang tahun kakakku?",
        "tip": "Apa tips dari kakak supaya aku gampang ingat materi ujian?",
        "match": "Bagaimana hasil timku di pertandingan hari Sabtu?",
        "essay": "Apa saran kakak waktu aku bingung memulai karangan?",
        "hobbies": "Hobi baru apa saja yang aku coba tahun ini?",
        "money": "Dengan cara apa saja aku menghasilkan uang?",
        "marks": "Bagaimana perkembangan nilai matematikaku sepanjang tahun?",
        "play": "Apakah aku dapat peran yang aku incar di drama sekolah?",
        "garden": "Bagaimana kelanjutan kebun sayur yang mau aku buat?",
        "drill": "Apa yang aku ceritakan di bulan {month} tentang simulasi kebakaran?",
        "grandpa": "Apa ceritaku di bulan {month} tentang kunjungan kakekku?",
    },
    "ur": {
        "ankle": "آپ کو یاد ہے میرے ٹخنے کو کیا ہوا تھا؟",
        "fair": "سائنس میلے میں میرا پروجیکٹ کس بارے میں ہے؟",
        "university": "میری بہن کس شہر کی یونیورسٹی میں جا رہی ہے؟",
        "pet": "میرا پالتو جانور کون سا ہے؟",
        "farm": "چھٹیوں میں میں کہاں گئی تھی؟",
        "novel": "میں نے حال ہی میں کون سی کتاب پڑھی اور مجھے کیسی لگی؟",
        "career": "میں مستقبل میں کس پیشے کا خواب دیکھتی ہوں؟",
        "birthday": "میں نے اپنی بہن کی سالگرہ کیسے منائی؟",
        "tip": "آپ نے مجھے امتحان کے لیے یاد رکھنے کا کیا طریقہ بتایا تھا؟",
        "match": "ہفتے کے میچ میں میری ٹیم کا کیا نتیجہ رہا؟",
        "essay": "جب مجھے مضمون شروع کرنے میں مشکل ہو رہی تھی تو آپ نے کیا مشورہ دیا تھا؟",
        "hobbies": "میں نے اس سال کون سے نئے مشغلے اپنائے؟",
        "money": "میں پیسے کیسے کما رہی ہوں؟",
        "marks": "سال بھر میں میرے ریاضی کے نمبر کیسے بدلے؟",
        "play": "کیا مجھے اسکول کے ڈرامے میں وہ کردار ملا جس کا میں نے آڈیشن دیا تھا؟",
        "garden": "میں جو سبزیوں کی کیاری بنانا چاہتی تھی، اس کا کیا ہوا؟",
        "drill": "{month} میں میں نے آگ کی مشق کے بارے میں کیا بتایا تھا؟",
        "grandpa": "{month} میں میں نے دادا ابو کے آنے کے بارے میں کیا کہا تھا؟",
    },
    "ar": {
        "ankle": "هل تذكر ماذا أصاب كاحلي؟",
        "fair": "عن ماذا مشروعي في معرض العلوم؟",
        "university": "في أي جامعة ستدرس أختي؟",
        "pet": "ما نوع الحيوان الأليف الذي أربيه؟",
        "farm": "أين ذهبت في الإجازة؟",
        "novel": "ما الكتاب الذي قرأته مؤخرا وكيف وجدته؟",
        "career": "ما المهنة التي أطمح إليها في المستقبل؟",
        "birthday": "كيف احتفلت بعيد ميلاد أختي؟",
        "tip": "ما النصيحة التي قدمتها لي لأتذكر المعلومات في الامتحان؟",
        "match": "كيف كانت نتيجة فريقي في مباراة السبت؟",
        "essay": "بماذا نصحتني عندما لم أعرف كيف أبدأ موضوع التعبير؟",
        "hobbies": "ما هواياتي الجديدة هذه السنة؟",
        "money": "كيف كنت أكسب المال مؤخرا؟",
        "marks": "كيف تغيرت علاماتي في الرياضيات خلال السنة؟",
        "play": "هل حصلت على الدور الذي أردته في مسرحية المدرسة؟",
        "garden": "ماذا حدث لحديقة الخضار التي أردت أن أزرعها؟",
        "drill": "ماذا قلت لك في {month} عن تدريب الإخلاء؟",
        "grandpa": "ماذا حكيت لك في {month} عن قصص جدي؟",
    },
}
